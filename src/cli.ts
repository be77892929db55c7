#!/usr/bin/env node
// argv, env and config file -> `serve` or the full-screen client.
// Heavy modules are imported lazily so `--help` and `serve` stay quick.
import { existsSync, readFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";

const USAGE = `parley: a full-screen terminal chat client

Usage:
  parley [--base-url URL] [--token-file PATH]   open the client
  parley serve [--host H] [--port N] [--db PATH|:memory:] [--demo] [--no-demo-replies]
                                                run the reference server alone
  parley ssh [--host H] [--port N] [--db PATH|:memory:] [--demo] [--authorized-keys PATH]
             [--threads N]                      serve the client over SSH (ssh -p N alice@H)
  parley --help | --version

Client options:
  --base-url URL      server to use (else PARLEY_BASE_URL, else the config file's
                      "baseUrl", else an embedded demo server on a free loopback port)
  --token-file PATH   read the access token from this file (else PARLEY_TOKEN,
                      else the config file's "token"); never pass a token as an argument

Server options (parley serve):
  --host H            address to bind (default 127.0.0.1; anything else warns)
  --port N            port (default 4317; 0 picks a free one)
  --db PATH           SQLite database file, or :memory: (default: the XDG data folder)
  --demo              seed demo users and conversations, and print their tokens
  --no-demo-replies   demo users do not answer messages

SSH options (parley ssh):
  --host H            address to bind (default 127.0.0.1; anything else warns)
  --port N            port (default 2222; 0 picks a free one)
  --db PATH           SQLite database file, or :memory: (default: $XDG_DATA_HOME/parley/ssh.db)
  --demo              seed demo conversations, and let any key sign in as a demo user
  --authorized-keys PATH
                      keys that may sign in (default ~/.ssh/authorized_keys; with --demo
                      and no such flag, any key). The ssh user name picks the demo user.
  --threads N         worker threads that draw the sessions' screens (default: one per
                      core but one, 1 to 8; 0: everything on the main thread)

Environment:
  PARLEY_BASE_URL     server address, e.g. http://127.0.0.1:4317
  PARLEY_TOKEN        access token
  XDG_CONFIG_HOME     config file: $XDG_CONFIG_HOME/parley/config.json
  XDG_DATA_HOME       embedded server's database: $XDG_DATA_HOME/parley/parley.db
  XDG_STATE_HOME      remembered identity and crash logs: $XDG_STATE_HOME/parley/
  NO_COLOR            no colour

Config file ($XDG_CONFIG_HOME/parley/config.json, usually ~/.config/parley/):
  {"baseUrl": "https://chat.example.com", "token": "…", "username": "alice",
   "bell": true, "notifications": true}

Keys: press ? in the client for every key.
Exit codes: 0 ok, 1 error, 2 usage.`;

// An older Node fails deep inside (node:sqlite, module hooks) with a stack trace; say it
// plainly instead. (A namespace import, so that nothing here fails to link on old Node.)
const NODE_MAJOR = Number(process.versions.node.split(".")[0]);
if (NODE_MAJOR < 24) {
  process.stderr.write(
    `parley: needs Node.js 24 or newer; this is ${process.version} (${process.execPath}).\n`,
  );
  process.exit(1);
}

// Compiled code is cached on disk between runs: start-up is mostly module loading.
nodeModule.enableCompileCache?.();

class UsageError extends Error {}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`);
  }
  return port;
}

function parseThreads(value: string): number {
  const threads = Number(value);
  if (!Number.isInteger(threads) || threads < 0 || threads > 64) {
    throw new UsageError(`--threads must be a number from 0 to 64, not "${value}".`);
  }
  return threads;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return String(pkg.version);
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "4317" },
      db: { type: "string" },
      demo: { type: "boolean", default: false },
      "no-demo-replies": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = parsePort(values.port);
  const { join } = await import("node:path");
  const { parleyPaths } = await import("./config.ts");
  const { serveUntilSignal } = await import("./server/serve.ts");
  await serveUntilSignal({
    host: values.host,
    port,
    db: values.db ?? join(parleyPaths().data, "server.db"),
    demo: values.demo,
    demoReplies: values.demo && !values["no-demo-replies"],
  });
}

async function ssh(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "2222" },
      db: { type: "string" },
      demo: { type: "boolean", default: false },
      "authorized-keys": { type: "string" },
      threads: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = parsePort(values.port);
  const threads = values.threads === undefined ? undefined : parseThreads(values.threads);
  const { runSsh } = await import("./ssh/main.ts");
  // Built, the sessions' worker script sits beside this file (rolldown.config.ts); from
  // source there is none, and sessions run on the main thread.
  const hostScript = new URL("./ssh-worker.js", import.meta.url);
  await runSsh({
    host: values.host,
    port,
    db: values.db,
    demo: values.demo,
    authorizedKeys: values["authorized-keys"],
    hostScript: existsSync(hostScript) ? hostScript : undefined,
    threads,
  });
}

async function client(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      "base-url": { type: "string" },
      "token-file": { type: "string" },
      token: { type: "string" },
    },
  });
  if (values.token !== undefined) {
    throw new UsageError(
      "A token on the command line would show in `ps`: use PARLEY_TOKEN, --token-file or the config file.",
    );
  }
  // React's development build costs seconds on long histories; parley is not a dev server.
  process.env.NODE_ENV ??= "production";
  // A chat client lives for hours and loads long histories in bursts; by default V8 keeps
  // the heap it grew for the garbage of a burst (360 MB resident after loading 10,000
  // messages, of which 40 MB live). Sized for memory it stays near 150 MB, at a cost of
  // a few milliseconds per frame (npm run bench). Not for `parley ssh`: there one process
  // renders for every session, and CPU is what runs out first.
  setFlagsFromString("--optimize-for-size");
  const { runClient } = await import("./client/main.ts");
  const code = await runClient({
    baseUrl: values["base-url"],
    tokenFile: values["token-file"],
  });
  // Exit now, even if a socket or timer lingers: a dropped SSH session must not leave us running.
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (first === "--version" || first === "-v") {
    process.stdout.write(`parley ${version()}\n`);
    return;
  }
  if (first === "serve") return serve(rest);
  if (first === "ssh") return ssh(rest);
  if (first !== undefined && !first.startsWith("-")) {
    throw new UsageError(`Unknown command "${first}".`);
  }
  return client(argv);
}

main(process.argv.slice(2)).catch(async (error: unknown) => {
  const { ConfigError } = await import("./config.ts");
  if (
    error instanceof UsageError ||
    (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
  ) {
    process.stderr.write(`parley: ${(error as Error).message}\nTry "parley --help".\n`);
    process.exit(2);
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`parley: ${error.message}\n`);
    process.exit(1);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
    process.stderr.write(`parley: cannot listen there (${code}): ${(error as Error).message}\n`);
    process.exit(1);
  }
  process.stderr.write(`parley: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
