// `parley ssh`: the embedded API server and the SSH server together, the banner saying
// where to connect, and a clean stop on SIGINT, SIGTERM and SIGHUP.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigError, parleyPaths } from "../config.ts";
import { isLoopback } from "../server/banner.ts";
import type { DemoMode } from "../server/demo/worlds.ts";
import type { LogFormat } from "../server/logger.ts";
import { logStart, onSignals } from "../server/serve.ts";
import { type AuthorizedKey, AuthorizedKeysError, readAuthorizedKeys } from "./auth.ts";
import { loadOrCreateHostKey } from "./host-key.ts";
import type { SshLimits } from "./server.ts";

export type SshCommandOptions = {
  host: string;
  port: number;
  /** Default: $XDG_DATA_HOME/parley/ssh.db. */
  db?: string;
  demo: boolean;
  /** With `demo`: a world of one's own per session (the default), or one for everyone. */
  demoWorlds?: DemoMode;
  /** Default: ~/.ssh/authorized_keys, when there is one; with --demo, any key. */
  authorizedKeys?: string;
  /** The built worker script for sessions' clients (src/ssh/pool.ts); else one thread. */
  hostScript?: URL;
  /** Worker threads for the sessions (default one per core but one, 1 to 8). */
  threads?: number;
  /** parley's version, for the start line. */
  version?: string;
  logFormat?: LogFormat;
  /** Append the log here rather than to stderr; SIGHUP reopens it. */
  logFile?: string | undefined;
  /** Serve GET /metrics on an address of its own. */
  metrics?: { host: string; port: number } | undefined;
  /** Caps on connections and sessions (src/ssh/server.ts has the defaults). */
  limits?: SshLimits;
  out?: (line: string) => void;
  err?: (line: string) => void;
};

export const HOST_KEY_FILE = "ssh_host_ed25519_key";
const STOP_GRACE_MS = 5000;
const PEOPLE_REFRESH_MS = 3000;

/**
 * Which keys may sign in: an explicit file always; else with --demo any key; else the
 * user's own ~/.ssh/authorized_keys (the people who may log in to this account anyway).
 * Without any of them there is nobody to let in, which is an error, not an open door.
 */
export function authorizedKeysPath(
  flag: string | undefined,
  demo: boolean,
  home = homedir(),
): string | null {
  if (flag !== undefined) return flag;
  if (demo) return null;
  const fallback = join(home, ".ssh", "authorized_keys");
  if (existsSync(fallback)) return fallback;
  throw new ConfigError(
    `No keys to let in: ${fallback} does not exist. Pass --authorized-keys PATH, or --demo to accept any key for the demo users.`,
  );
}

/**
 * What a signal does: `close` is given STOP_GRACE_MS (a session that will not let go must
 * not keep the process alive), then the process exits; a second signal changes nothing.
 */
export function stopOnce(
  close: () => Promise<void>,
  stopped: (signal: string) => void,
): (signal: string) => void {
  let stopping = false;
  return (signal) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      stopped(signal);
      process.exit(0);
    }, STOP_GRACE_MS).unref();
    close().then(
      () => {
        stopped(signal);
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
}

/** The banner's line on where sessions are drawn. */
export function threadsLine(threads: number): string {
  return threads === 0
    ? "sessions are drawn on the main thread"
    : `sessions are drawn on ${threads} worker thread${threads === 1 ? "" : "s"}`;
}

export async function runSsh(options: SshCommandOptions): Promise<void> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { createLogger } = await import("../server/logger.ts");
  const logger =
    options.err === undefined
      ? createLogger({ format: options.logFormat, file: options.logFile })
      : undefined;
  const err = options.err ?? ((line: string) => logger!.line(line));
  // Colour is decided once per process from its own stdout, which for a server is often a
  // log or a pipe; the sessions are terminals. They are drawn in true colour, and each
  // session's frames are brought down to what its terminal shows (src/ssh/colours.ts);
  // NO_COLOR from a client's environment turns colour off for that session.
  const off = process.env.FORCE_COLOR === "0" || process.env.FORCE_COLOR === "false";
  if (!off) process.env.FORCE_COLOR = "3";
  const { startServer } = await import("../server/index.ts");
  const { DEFAULT_MAX_CONNECTIONS } = await import("../server/connections.ts");
  const { startSshServer } = await import("./server.ts");

  const paths = parleyPaths();
  const keysPath = authorizedKeysPath(options.authorizedKeys, options.demo);
  let authorizedKeys: (() => AuthorizedKey[]) | null = null;
  if (keysPath !== null) {
    const first = readAuthorizedKeys(keysPath);
    if (first.skipped > 0) {
      err(
        `parley ssh: skipped ${first.skipped} line(s) of ${keysPath} with options (from=, command=, …) or an unknown key type; parley cannot enforce options.`,
      );
    }
    if (first.unnamed > 0) {
      err(
        `parley ssh: ${first.unnamed} key(s) of ${keysPath} name no user and sign in as nobody; start their lines with parley-user="NAME".`,
      );
    }
    if (first.keys.length === 0) {
      throw new ConfigError(
        `${keysPath} has no keys parley can use: each key line needs parley-user="NAME" in front (docs/team.md: "parley ssh in public").`,
      );
    }
    let last = first.keys;
    authorizedKeys = () => {
      try {
        last = readAuthorizedKeys(keysPath).keys;
      } catch (error) {
        if (!(error instanceof AuthorizedKeysError)) throw error;
        // Mid-edit or briefly gone: keep the keys read last.
      }
      return last;
    };
  }

  const hostKey = loadOrCreateHostKey(join(paths.data, HOST_KEY_FILE));
  // Worlds of their own: the API server below is only the template's names (and metrics);
  // each session's client talks to its own.
  const ownWorlds = options.demo && (options.demoWorlds ?? "own") === "own";
  const worlds = ownWorlds
    ? (await import("../server/demo/worlds.ts")).demoWorlds({
        start: startServer,
        maxWorlds: options.limits?.maxSessions,
        log: err,
      })
    : undefined;
  const apiConnections = Math.max(DEFAULT_MAX_CONNECTIONS, 8 * (options.limits?.maxSessions ?? 0));
  const api = await startServer({
    // The API stays on this machine whatever --host says: only the SSH server faces out.
    host: "127.0.0.1",
    port: 0,
    db: ownWorlds ? ":memory:" : (options.db ?? join(paths.data, "ssh.db")),
    demo: options.demo,
    // People are the demo users here: a robot answering as bob while bob types is confusing.
    demoReplies: false,
    // Every session's requests come from this machine: their connections are capped per
    // session (fetch-limit.ts: a few each), not per address.
    connections: { maxConnections: apiConnections, maxPerAddress: apiConnections },
    ...(options.metrics ? { metrics: options.metrics } : {}),
    log: err,
    ...(logger ? { access: logger.access } : {}),
  });
  // Without --demo, whoever `parley users` has added, looked at again every few seconds
  // so that people added or removed while it runs count without a restart.
  const users = options.demo ? api.demoUsers : await api.people();
  const refresh = options.demo
    ? undefined
    : setInterval(() => {
        api.people().then(
          (now) => {
            // A backstop for a removal onRemoved (below) did not hear of: gone, they go.
            const present = new Set(now.map((u) => u.username));
            const gone = users.filter((u) => !present.has(u.username)).map((u) => u.username);
            users.splice(0, users.length, ...now);
            for (const name of gone) ssh?.endSessionsOf(name);
          },
          () => {},
        );
      }, PEOPLE_REFRESH_MS);
  refresh?.unref();
  let ssh: Awaited<ReturnType<typeof startSshServer>> | undefined;
  try {
    ssh = await startSshServer({
      host: options.host,
      port: options.port,
      hostKey: hostKey.privateKey,
      api: { url: api.url, users, world: worlds?.enter },
      authorizedKeys,
      // A visitor's draft is theirs: in worlds of their own, not the next alice's.
      keepDir: ownWorlds ? undefined : join(paths.state, "ssh-unsent"),
      log: err,
      hostScript: options.hostScript,
      hostThreads: options.threads,
      ...options.limits,
    });
  } catch (error) {
    clearInterval(refresh);
    await worlds?.close();
    await api.close();
    throw error;
  }

  api.metrics.countSshSessions(() => ssh.liveSessions());
  // Someone removed (parley users remove, from any process) loses their sessions at once,
  // told by the event that removal appends; the refresh above is for people added.
  api.onRemoved((username) => {
    const kept = users.filter((u) => u.username !== username);
    users.splice(0, users.length, ...kept);
    ssh?.endSessionsOf(username);
  });
  const stopped = (signal: string) => {
    logger?.event("info", `parley ssh stopped (${signal})`, { signal });
    logger?.close();
  };
  const stop = stopOnce(async () => {
    clearInterval(refresh);
    await ssh.close();
    await worlds?.close();
    await api.close();
  }, stopped);
  // Before the banner: whoever reads it may signal at once. `on`, not `once`: Ink's
  // signal-exit re-raises a signal nobody else listens to, which would skip the cleanup.
  if (logger) onSignals(logger, stop);
  else {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
      process.on(signal, () => stop(signal));
  }
  if (logger) {
    logStart(logger, "ssh", api, options.version, {
      ssh: `${ssh.host}:${ssh.port}`,
      ...(keysPath ? { keys: keysPath } : {}),
    });
  }

  const shown = ssh.host === "0.0.0.0" || ssh.host === "::" ? "<this machine>" : ssh.host;
  out(`parley ssh listening on ${ssh.host} port ${ssh.port}`);
  out(`host key ${hostKey.fingerprint} (${hostKey.path}${hostKey.created ? ", new" : ""})`);
  for (const user of users) out(`ssh -p ${ssh.port} ${user.username}@${shown}`);
  if (users.length === 0) {
    out("nobody can sign in yet: add people with parley users add NAME --db <this database>");
  }
  out(threadsLine(ssh.threads));
  if (options.demo) {
    out(
      ownWorlds
        ? "each session has a demo world of its own, whose bots answer it alone (--demo)"
        : "everyone shares one demo world (--demo shared)",
    );
  }
  if (keysPath === null) out("any key is accepted, or none (--demo)");
  else out(`keys from ${keysPath}`);
  if (!isLoopback(ssh.host)) {
    err(
      `warning: listening on ${ssh.host}, so other machines can connect${keysPath === null ? " with any key (--demo)" : ""}. Use --host 127.0.0.1 to stay on this machine.`,
    );
  }
}
