// Where parley keeps things and how it finds its server and token.
// Precedence, highest first: command-line flag, environment variable, config file.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import envPaths from "env-paths";
import { z } from "zod";
import type { NotifyLevel } from "./ui/mentions.ts";

export type Paths = {
  config: string;
  data: string;
  state: string;
  cache: string;
  configFile: string;
};

/**
 * XDG folders on Linux ($XDG_CONFIG_HOME/parley, $XDG_DATA_HOME/parley,
 * $XDG_STATE_HOME/parley, $XDG_CACHE_HOME/parley).
 */
export function parleyPaths(): Paths {
  const p = envPaths("parley", { suffix: "" });
  return {
    config: p.config,
    data: p.data,
    state: p.log,
    cache: p.cache,
    configFile: join(p.config, "config.json"),
  };
}

export const ConfigFile = z
  .object({
    baseUrl: z.string().url().optional(),
    token: z.string().min(1).optional(),
    username: z.string().min(1).optional(),
    bell: z.boolean().optional(),
    notifications: z.boolean().optional(),
    theme: z.enum(["auto", "dark", "light", "high-contrast"]).optional(),
    notify: z.enum(["all", "mentions", "none"]).optional(),
    notifyConversations: z.record(z.string(), z.enum(["all", "mentions", "none"])).optional(),
    mouse: z.boolean().optional(),
  })
  .loose();
export type ConfigFile = z.output<typeof ConfigFile>;

export class ConfigError extends Error {}

export function readConfigFile(path: string): ConfigFile {
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
  } catch {
    throw new ConfigError(`${path} is not valid JSON.`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${path}: "${issue?.path.join(".")}" ${issue?.message ?? "is invalid"}.`);
  }
  return parsed.data;
}

export type ClientOptions = {
  baseUrl?: string;
  tokenFile?: string;
  env: NodeJS.ProcessEnv;
  paths: Paths;
};

export type ResolvedClientConfig = {
  /** Absent: start the embedded demo server. */
  baseUrl?: string;
  token?: string;
  username?: string;
  bell: boolean;
  notifications: boolean;
  theme: "auto" | "dark" | "light" | "high-contrast";
  /** What rings and notifies: every message, only those that mention you, or none. */
  notify: NotifyLevel;
  /** Per conversation id, over `notify`. */
  notifyConversations: Record<string, NotifyLevel>;
  mouse: boolean;
};

export function resolveClientConfig(opts: ClientOptions): ResolvedClientConfig {
  const file = readConfigFile(opts.paths.configFile);
  const baseUrl = opts.baseUrl ?? nonEmpty(opts.env.PARLEY_BASE_URL) ?? file.baseUrl;
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
    token,
    username: file.username,
    bell: file.bell ?? true,
    notifications: file.notifications ?? true,
    theme: file.theme ?? "auto",
    notify: file.notify ?? "all",
    notifyConversations: file.notifyConversations ?? {},
    mouse: file.mouse ?? true,
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
    mkdirSync(dirname(stateFile(paths)), { recursive: true });
    writeFileSync(stateFile(paths), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  } catch {
    // Remembering is a convenience; a read-only home must not stop the client.
  }
}
