// Where parley keeps things and how it finds its server and token.
// Precedence, highest first: command-line flag, environment variable, config file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { closest, distance } from "fastest-levenshtein";
import { writePrivateFile } from "./client/files.ts";
import type { Paths } from "./paths.ts";
import { BINDINGS } from "./ui/keys/bindings.ts";
import { type UserKeys, withUserKeys } from "./ui/keys/user-keys.ts";
import type { ThemeSetting } from "./ui/look/theme.ts";
import type { NotifyLevel } from "./ui/model/mentions.ts";
import { z } from "./zod.ts";

export { type Paths, parleyPaths } from "./paths.ts";

const NotifyLevelSetting = z.enum(["all", "mentions", "none"] satisfies NotifyLevel[]);

export const ConfigFile = z
  .object({
    baseUrl: z.string().url().optional(),
    token: z.string().min(1).optional(),
    username: z.string().min(1).optional(),
    bell: z.boolean().optional(),
    notifications: z.boolean().optional(),
    theme: z.enum(["auto", "dark", "light", "high-contrast"] satisfies ThemeSetting[]).optional(),
    notify: NotifyLevelSetting.optional(),
    notifyConversations: z.record(z.string(), NotifyLevelSetting).optional(),
    mouse: z.boolean().optional(),
    /** Your own keys: a binding id and the key, or keys, that trigger it instead. */
    keys: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  })
  .loose();
export type ConfigFile = z.output<typeof ConfigFile>;

/** A failure the person can act on: the command line prints its message as one line. */
export class ConfigError extends Error {
  readonly expected = true;
}

/**
 * The config file, or {} if there is none. A key parley does not know is not an error (a
 * newer parley's file still works) but is reported to `warn`, with the closest known key.
 */
export function readConfigFile(path: string, warn: (line: string) => void = () => {}): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const { line, column } = jsonErrorPlace(text, (error as Error).message);
    const reason = (error as Error).message.replace(/\s*(in JSON )?at position.*$/, "");
    throw new ConfigError(`${path}:${line}:${column}: not valid JSON (${reason}).`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.join(".");
    const where = typeof issue?.path[0] === "string" ? placeOfKey(text, issue.path[0]) : "";
    throw new ConfigError(
      `${path}${where}: ${key ? `"${key}" ` : ""}${issue?.message ?? "is invalid"}.`,
    );
  }
  // Your own keys must name bindings and keys, and leave no key to two bindings at once.
  if (parsed.data.keys) {
    try {
      withUserKeys(BINDINGS, parsed.data.keys);
    } catch (error) {
      const where = placeOfKey(text, "keys");
      throw new ConfigError(`${path}${where}: "keys": ${(error as Error).message}.`);
    }
  }
  const known = Object.keys(ConfigFile.shape);
  for (const key of Object.keys(parsed.data)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    const hint = distance(key, near) <= 3 ? ` Did you mean "${near}"?` : "";
    warn(`${path}${placeOfKey(text, key)}: unknown key "${key}", ignored.${hint}`);
  }
  return parsed.data;
}

/** Line and column (from 1) of a JSON.parse error: its "position N", or the end of the text. */
function jsonErrorPlace(text: string, message: string): { line: number; column: number } {
  const position = Number(/at position (\d+)/.exec(message)?.[1] ?? text.length);
  const before = text.slice(0, position).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** ":line:column" of a top-level key's first mention in the text, or "" if not found. */
function placeOfKey(text: string, key: string): string {
  const at = text.indexOf(JSON.stringify(key));
  if (at < 0) return "";
  const before = text.slice(0, at).split("\n");
  return `:${before.length}:${before.at(-1)!.length + 1}`;
}

export type ClientOptions = {
  baseUrl?: string;
  tokenFile?: string;
  env: NodeJS.ProcessEnv;
  paths: Paths;
  /** Told about what the config file has that parley does not know. */
  warn?: (line: string) => void;
};

export type ResolvedClientConfig = {
  /** Absent: start the embedded demo server. */
  baseUrl?: string;
  /** Where the base URL was given, as a person would name it (for the offline hint). */
  baseUrlFrom?: BaseUrlFrom;
  token?: string;
  username?: string;
  bell: boolean;
  notifications: boolean;
  theme: ThemeSetting;
  /** What rings and notifies: every message, only those that mention you, or none. */
  notify: NotifyLevel;
  /** Per conversation id, over `notify`. */
  notifyConversations: Record<string, NotifyLevel>;
  mouse: boolean;
  /** The config file's `keys`, checked against the key table. */
  keys: UserKeys;
};

export type BaseUrlFrom = "--base-url" | "PARLEY_BASE_URL" | "the config file's baseUrl";

export function resolveClientConfig(opts: ClientOptions): ResolvedClientConfig {
  const file = readConfigFile(opts.paths.configFile, opts.warn);
  const fromEnv = nonEmpty(opts.env.PARLEY_BASE_URL);
  const baseUrl = opts.baseUrl ?? fromEnv ?? file.baseUrl;
  const baseUrlFrom: BaseUrlFrom | undefined =
    opts.baseUrl !== undefined
      ? "--base-url"
      : fromEnv !== undefined
        ? "PARLEY_BASE_URL"
        : file.baseUrl !== undefined
          ? "the config file's baseUrl"
          : undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+/.test(baseUrl)) {
    throw new ConfigError(`The server address "${baseUrl}" must start with http:// or https://.`);
  }
  let token: string | undefined;
  if (opts.tokenFile !== undefined) {
    try {
      token = readFileSync(opts.tokenFile, "utf8").trim();
    } catch (error) {
      throw new ConfigError(
        `Cannot read the token file ${opts.tokenFile}: ${(error as Error).message}`,
      );
    }
    if (!token) throw new ConfigError(`The token file ${opts.tokenFile} is empty.`);
  }
  token ??= nonEmpty(opts.env.PARLEY_TOKEN) ?? file.token;
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ""),
    ...(baseUrlFrom !== undefined && { baseUrlFrom }),
    token,
    username: file.username,
    bell: file.bell ?? true,
    notifications: file.notifications ?? true,
    theme: file.theme ?? "auto",
    notify: file.notify ?? "all",
    notifyConversations: file.notifyConversations ?? {},
    mouse: file.mouse ?? true,
    keys: file.keys ?? {},
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

// ---- remembered state: who "you" are on each server ----

type StateFile = { identities?: Record<string, string> };

function stateFile(paths: Paths): string {
  return join(paths.state, "state.json");
}

function readState(paths: Paths): StateFile {
  try {
    return JSON.parse(readFileSync(stateFile(paths), "utf8")) as StateFile;
  } catch {
    return {};
  }
}

/** The user name last seen for this server and token, if any. */
export function rememberedUsername(paths: Paths, key: string): string | undefined {
  return readState(paths).identities?.[key];
}

export function rememberUsername(paths: Paths, key: string, username: string): void {
  const state = readState(paths);
  state.identities = { ...state.identities, [key]: username };
  try {
    writePrivateFile(stateFile(paths), `${JSON.stringify(state, null, 2)}\n`);
  } catch {
    // Remembering is a convenience; a read-only home must not stop the client.
  }
}
