#!/usr/bin/env node
// argv, env and config file -> `serve` or the full-screen client.
// Heavy modules are imported lazily so `--help` and `serve` stay quick.
import { existsSync, readFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { parseArgs } from "node:util";
import {
  CLIENT_OPTIONS,
  COMMANDS,
  type Command,
  GROUPS_OPTIONS,
  helpFor,
  SERVE_OPTIONS,
  SSH_OPTIONS,
  takeDemoWorld,
  USERS_OPTIONS,
  WEB_OPTIONS,
} from "./cli-options.ts";
import { trimHeapWhenQuiet } from "./client/heap-trim.ts";
import { CODE_CACHE, type CodeCache } from "./code-cache.ts";
import { hideSqliteWarning, nodeRefusal } from "./node-check.ts";

// An older Node fails deep inside (node:sqlite, module hooks) with a stack trace; say it
// plainly instead, with how to run it on a newer one.
const refusal = nodeRefusal(process.versions.node, process.execPath, process.argv[1]);
if (refusal !== undefined) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
hideSqliteWarning();

// Compiled code is cached on disk between runs: start-up is mostly module loading. The
// bundle's own files have V8's cache made after they ran (src/code-cache.ts); Node's is
// for the rest (the sources under test, or where that cache is off).
nodeModule.enableCompileCache?.();

class UsageError extends Error {}

/** The command being run, for the "Try parley COMMAND --help" of a usage error. */
let running: Command = "client";

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`);
  }
  return port;
}

/** --metrics HOST:PORT (or [::1]:PORT): where GET /metrics is served on its own. */
function parseListen(
  flag: string,
  value: string | undefined,
): { host: string; port: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/i.exec(value);
  if (!match)
    throw new UsageError(
      `--${flag} must be HOST:PORT (say 127.0.0.1:9464), not "${value.slice(0, 60)}".`,
    );
  return { host: match[1] ?? match[2]!, port: parsePort(match[3]!) };
}

function parseThreads(value: string): number {
  const threads = Number(value);
  if (!Number.isInteger(threads) || threads < 0 || threads > 8) {
    throw new UsageError(
      `--threads must be a number from 1 to 8 (0: draw on the main thread), not "${value}".`,
    );
  }
  return threads;
}

function parseLimit(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) {
    throw new UsageError(`--${flag} must be a number from 1 to 100000, not "${value}".`);
  }
  return limit;
}

const SIZE_UNITS: Record<string, number> = { "": 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `25MB`, `1 GB`, `512KB` (binary: 1 MB is 1024 KB), or bytes; `0` only where `zero` is taken. */
function parseSize(flag: string, value: string | undefined, zero: boolean): number | undefined {
  if (value === undefined) return undefined;
  const [, number = "", unit = ""] = /^(\d+(?:\.\d+)?)\s*([kmg]?b)?$/i.exec(value.trim()) ?? [];
  const bytes = Math.floor(Number(number) * (SIZE_UNITS[unit.toLowerCase()] ?? Number.NaN));
  if (number === "" || !Number.isFinite(bytes) || bytes > 1024 ** 4 || (bytes < 1 && !zero)) {
    throw new UsageError(
      `--${flag} must be a size such as 25MB or 1GB${zero ? " (0: none)" : ""}, not "${value.slice(0, 20)}".`,
    );
  }
  return bytes;
}

/** --max-upload (0: no uploads) and --upload-quota. */
function uploadOptions(max: string | undefined, quota: string | undefined) {
  const maxBytes = parseSize("max-upload", max, true);
  if (maxBytes === 0) return { uploads: false as const };
  const quotaBytes = parseSize("upload-quota", quota, false);
  return {
    uploads: {
      ...(maxBytes === undefined ? {} : { maxBytes }),
      ...(quotaBytes === undefined ? {} : { quotaBytes }),
    },
  };
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return String(pkg.version);
}

/** `parley serve`'s database: --db, else PARLEY_DATABASE_URL, else server.db in the data folder. */
async function serverDb(flag: string | undefined): Promise<string> {
  if (flag !== undefined) return flag;
  const { join } = process.getBuiltinModule("node:path");
  const { parleyPaths } = await import("./paths.ts");
  return process.env.PARLEY_DATABASE_URL || join(parleyPaths().data, "server.db");
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: SERVE_OPTIONS,
  });
  const port = parsePort(values.port);
  const { serveUntilSignal } = await import("./server/serve.ts");
  await serveUntilSignal({
    host: values.host,
    port,
    db: await serverDb(values.db),
    demo: values.demo,
    demoReplies: values.demo && !values["no-demo-replies"],
    connections: {
      maxConnections: parseLimit("max-connections", values["max-connections"]),
      maxPerAddress: parseLimit(
        "max-connections-per-address",
        values["max-connections-per-address"],
      ),
    },
    ...uploadOptions(values["max-upload"], values["upload-quota"]),
    ...metricsOptions(values.metrics),
    ...(await logOptions(values["log-format"], values["log-file"])),
    version: version(),
  });
}

/** --log-format and --log-file of serve and ssh. */
async function logOptions(format: string | undefined, file: string | undefined) {
  const { LOG_FORMATS } = await import("./server/logger.ts");
  if (format !== undefined && !LOG_FORMATS.includes(format as never)) {
    throw new UsageError(`--log-format must be text or json, not "${format.slice(0, 20)}".`);
  }
  return { logFormat: (format ?? "text") as "text" | "json", logFile: file };
}

/** --metrics, and GET /metrics on the API's port when PARLEY_METRICS_TOKEN is set. */
function metricsOptions(flag: string | undefined) {
  const metrics = parseListen("metrics", flag);
  const token = process.env.PARLEY_METRICS_TOKEN || undefined;
  return { ...(metrics ? { metrics } : {}), ...(token ? { metricsToken: token } : {}) };
}

/** --idle-minutes N, in ms; `fallback` when not given. */
function parseIdle(value: string | undefined, fallback: number | undefined): number | undefined {
  const minutes = parseLimit("idle-minutes", value);
  return minutes === undefined ? fallback : minutes * 60_000;
}

/** The built sessions' worker beside this file (rolldown.config.ts); from source, none. */
async function sessionWorker(): Promise<URL | undefined> {
  const workerScript = new URL("./ssh-worker.cjs", import.meta.url);
  const hostScript = existsSync(workerScript) ? workerScript : undefined;
  // With worker threads, glibc malloc set to give memory back (this may start the process
  // again, in place).
  if (hostScript) (await import("./ssh/malloc-arenas.ts")).withMallocSettings();
  return hostScript;
}

/** --trust-proxy ADDR,… (repeatable): checked here, so a wrong one is a usage line. */
async function parseTrustProxy(given: string[] | undefined): Promise<string[] | undefined> {
  if (given === undefined) return undefined;
  const { trustedProxies } = await import("./server/forwarded.ts");
  try {
    trustedProxies(given);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return given;
}

async function web(args: string[]): Promise<void> {
  const demo = takeDemoWorld(args);
  const { values } = parseArgs({ args: demo.args, strict: true, options: WEB_OPTIONS });
  const port = parsePort(values.port);
  const threads = values.threads === undefined ? undefined : parseThreads(values.threads);
  const hostScript = await sessionWorker();
  // Built, the page's files are in dist/web/ (rolldown.config.ts); from source, src/web/page/.
  const builtAssets = new URL("./web/", import.meta.url);
  const assets = existsSync(new URL("index.html", builtAssets))
    ? builtAssets
    : new URL("./web/page/", import.meta.url);
  const { runWeb } = await import("./web/main.ts");
  await runWeb({
    host: values.host,
    port,
    db: values.db,
    demo: values.demo ? demo.world : false,
    origins: values.origin,
    trustProxy: await parseTrustProxy(values["trust-proxy"]),
    assets,
    hostScript,
    threads,
    ...(await logOptions(values["log-format"], values["log-file"])),
    version: version(),
    limits: {
      maxSessions: parseLimit("max-sessions", values["max-sessions"]),
      maxSessionsPerAddress: parseLimit(
        "max-sessions-per-address",
        values["max-sessions-per-address"],
      ),
      maxConnections: parseLimit("max-connections", values["max-connections"]),
      maxConnectionsPerAddress: parseLimit(
        "max-connections-per-address",
        values["max-connections-per-address"],
      ),
      idleMs: parseIdle(values["idle-minutes"], undefined),
    },
  });
}

async function ssh(args: string[]): Promise<void> {
  const demo = takeDemoWorld(args);
  const { values } = parseArgs({
    args: demo.args,
    strict: true,
    options: SSH_OPTIONS,
  });
  const port = parsePort(values.port);
  const threads = values.threads === undefined ? undefined : parseThreads(values.threads);
  const hostScript = await sessionWorker();
  const { runSsh } = await import("./ssh/main.ts");
  await runSsh({
    host: values.host,
    port,
    db: values.db,
    demo: values.demo,
    demoWorlds: demo.world,
    authorizedKeys: values["authorized-keys"],
    metrics: parseListen("metrics", values.metrics),
    ...(await logOptions(values["log-format"], values["log-file"])),
    version: version(),
    hostScript,
    threads,
    limits: {
      maxConnections: parseLimit("max-connections", values["max-connections"]),
      maxConnectionsPerAddress: parseLimit(
        "max-connections-per-address",
        values["max-connections-per-address"],
      ),
      maxSessions: parseLimit("max-sessions", values["max-sessions"]),
      maxSessionsPerConnection: parseLimit(
        "max-sessions-per-connection",
        values["max-sessions-per-connection"],
      ),
      maxSessionsPerUser: parseLimit("max-sessions-per-user", values["max-sessions-per-user"]),
      // A public demo's visitors walk away; a team's sessions stay until they quit.
      idleMs: parseIdle(values["idle-minutes"], values.demo ? 15 * 60_000 : undefined),
    },
  });
}

/** `parley users …` and `parley groups …`: the people of a server's database. */
async function people(command: "users" | "groups", args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: command === "users" ? USERS_OPTIONS : GROUPS_OPTIONS,
  });
  const { runUsers, runGroups, UsersUsageError } = await import("./server/users-cli.ts");
  const db = await serverDb(values.db);
  try {
    const said =
      command === "users"
        ? await runUsers(db, positionals, {
            tokenName: (values as { "token-name"?: string })["token-name"],
            expires: (values as { expires?: string }).expires,
          })
        : await runGroups(db, positionals, (values as { members?: string }).members);
    // The words on stderr, what a script takes (a token, a table) alone on stdout.
    for (const line of said.say) process.stderr.write(`${line}\n`);
    if (said.out.length > 0) process.stdout.write(`${said.out.join("\n")}\n`);
  } catch (error) {
    if (error instanceof UsersUsageError) throw new UsageError(error.message);
    throw error;
  }
}

async function client(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: CLIENT_OPTIONS,
  });
  if (values.token !== undefined) {
    throw new UsageError(
      "A token on the command line would show in `ps`: use PARLEY_TOKEN, --token-file or the config file.",
    );
  }
  // V8 runs as made for speed, and gives back what it grew once the client is quiet
  // (src/client/heap-trim.ts). Not for `parley ssh`: there one process renders for every
  // session. Set once the first frame is out, after V8's cache of the code the start ran
  // is kept: made with other flags (--expose-gc), the next start would refuse it
  // (src/code-cache.ts).
  setTimeout(() => {
    (globalThis as { [CODE_CACHE]?: CodeCache })[CODE_CACHE]?.save();
    trimHeapWhenQuiet();
  }, 1000).unref();
  // Before anything reads Node's Headers, Request or Response, which would load undici.
  (await import("./api/fetch-classes.ts")).installFetchClasses();
  const { runClient } = await import("./client/main.ts");
  const code = await runClient({ baseUrl: values["base-url"], tokenFile: values["token-file"] });
  // Exit now, even if a socket or timer lingers: a dropped SSH session must not leave us running.
  process.exit(code);
}

/**
 * A reader that went away (`parley --help | head -1`) is not an error: a command that was
 * only printing exits quietly, and a server (whose banner went to a pipe) keeps serving.
 */
function quietWhenPipesClose(keepRunning: boolean): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      if (!keepRunning) process.exit(0);
    });
  }
}

/** --help or -h anywhere before a lone "--" asks for help, whatever else is there. */
function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  const isCommand = (word: string | undefined): word is keyof typeof COMMANDS =>
    word !== undefined && Object.hasOwn(COMMANDS, word);
  const command: Command = isCommand(first) ? first : "client";
  running = command;
  if (first === "help" || wantsHelp(argv)) {
    quietWhenPipesClose(false);
    const about = first === "help" && isCommand(rest[0]) ? rest[0] : command;
    process.stdout.write(`${helpFor(about)}\n`);
    return;
  }
  if (first === "--version" || first === "-v") {
    quietWhenPipesClose(false);
    // The schema tells which databases this parley opens (newer ones it refuses).
    const { MIGRATIONS } = await import("./server/store/sqlite/migrations.ts");
    process.stdout.write(`parley ${version()} (database schema ${MIGRATIONS.length})\n`);
    return;
  }
  if (first === "serve" || first === "ssh" || first === "web") quietWhenPipesClose(true);
  if (first === "serve") return serve(rest);
  if (first === "ssh") return ssh(rest);
  if (first === "web") return web(rest);
  if (first === "users" || first === "groups") {
    quietWhenPipesClose(false);
    return people(first, rest);
  }
  if (first !== undefined && !first.startsWith("-")) {
    throw new UsageError(`Unknown command "${first}".`);
  }
  return client(argv);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
  ) {
    const help = running === "client" ? "parley --help" : `parley ${running} --help`;
    process.stderr.write(`parley: ${(error as Error).message}\nTry "${help}".\n`);
    process.exit(2);
  }
  // A ConfigError, or another failure marked expected (the embedded server's too).
  if ((error as { expected?: boolean }).expected === true) {
    process.stderr.write(`parley: ${(error as Error).message}\n`);
    process.exit((error as { exitCode?: number }).exitCode === 2 ? 2 : 1);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
    process.stderr.write(`parley: cannot listen there (${code}): ${(error as Error).message}\n`);
    process.exit(1);
  }
  process.stderr.write(`parley: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
