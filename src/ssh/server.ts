// The full-screen client served over SSH: one ssh2 Server, one embedded API server shared
// by everyone, and per SSH session its own client (an Ink instance, on a worker thread:
// src/ssh/pool.ts) drawing on the session's channel, signed in as the demo user named by
// the SSH user name. Two people connecting as alice and bob chat live through the shared
// API server. This file composes the parts: who may sign in (auth.ts), what a connection
// may ask for (channel.ts), and the live sessions (sessions.ts).
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import ssh2, { type Connection, type ParsedKey } from "ssh2";
import type { DemoUser } from "../server/index.ts";
import { authenticate } from "./auth.ts";
import { handleSessionChannel, refuse, refuseForwarding, type ShellRequest } from "./channel.ts";
import { inThreadPool, workerPool } from "./pool.ts";
import { createSessionRegistry, type LiveSession } from "./sessions.ts";

export type SshServerOptions = {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The host key, a private key in OpenSSH or PEM format. */
  hostKey: string;
  /** The API server every session talks to, and who may sign in (read at each sign-in: it may change). */
  api: { url: string; users: readonly DemoUser[] };
  /**
   * The client keys that may sign in, asked on every attempt (so an edited
   * authorized_keys file counts at once); `null`: any key that proves itself (--demo).
   */
  authorizedKeys: (() => readonly ParsedKey[]) | null;
  /** One line per event (connect, leave, refusals, errors). */
  log?: (line: string) => void;
  /** Where each user's drafts and unsent changes are kept between sessions; none if unset. */
  keepDir?: string;
  /** Live client sessions at most; more are told to come back later. Default 64. */
  maxSessions?: number;
  /**
   * The built worker script (dist/ssh-worker.js) that runs sessions' clients on worker
   * threads; without it they run on this thread (running from source, some tests).
   */
  hostScript?: URL;
  /** Worker threads for the sessions. Default: one per core but one, 1 to 8; 0: this thread. */
  hostThreads?: number;
};

/**
 * One worker per core but one: the main thread keeps a core for the SSH connections'
 * crypto and the API server. On 2 cores, 1 worker beat both 0 and 2 (npm run bench).
 */
function defaultHostThreads(): number {
  return Math.min(8, Math.max(1, availableParallelism() - 1));
}

export type SshServer = {
  host: string;
  port: number;
  /** Client sessions on screen now. */
  liveSessions(): number;
  /** Worker threads that run the sessions' clients; 0: this thread. */
  threads: number;
  /** Ends every session (each one's terminal is given back), then stops listening. */
  close(): Promise<void>;
};

/** A name the client chose, safe to print in a terminal or a log. */
function printable(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, "?").slice(0, 64);
}

export function unknownUserMessage(name: string, users: readonly DemoUser[]): string {
  const names = users.map((u) => u.username).join(", ");
  return `parley: no user "${printable(name)}" here; sign in as one of ${names} (the ssh user name picks who you are).`;
}

const HANG_UP_GRACE_MS = 1000;

export async function startSshServer(options: SshServerOptions): Promise<SshServer> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? (() => {});
  const maxSessions = options.maxSessions ?? 64;
  // Ink's waitUntilExit adds a 'beforeExit' listener per mounted instance (removed when it
  // unmounts): N sessions are N listeners, not a leak, and Node's warning at 11 is noise.
  if (process.getMaxListeners() < maxSessions + 10) process.setMaxListeners(maxSessions + 10);
  const userNamed = (name: string) => options.api.users.find((u) => u.username === name);
  const threads = options.hostScript ? (options.hostThreads ?? defaultHostThreads()) : 0;
  const pool =
    options.hostScript && threads > 0
      ? workerPool(options.hostScript, threads, log)
      : inThreadPool();
  const sessions = createSessionRegistry({
    pool,
    apiUrl: options.api.url,
    keepDir: options.keepDir,
    maxSessions,
    log,
  });
  const connections = new Set<Connection>();

  /** Why a shell on a usable terminal is still turned away, if it is. */
  function refusal(username: string, from: string): string | undefined {
    if (!userNamed(username)) {
      log(`parley ssh: refused unknown user "${printable(username)}" (${from})`);
      return unknownUserMessage(username, options.api.users);
    }
    if (sessions.closing()) return "parley: the server is shutting down.";
    if (sessions.isFull()) {
      return `parley: this server is full (${maxSessions} sessions); try again later.`;
    }
    return undefined;
  }

  function startClient(request: ShellRequest, username: string, from: string) {
    const why = refusal(username, from);
    if (why !== undefined) {
      refuse(request.channel, why);
      return undefined;
    }
    return sessions.start(request, userNamed(username)!, from);
  }

  const server = new ssh2.Server(
    {
      hostKeys: [options.hostKey],
      ident: "parley",
      // Finds connections that vanished without a word (a laptop lid, a dropped network).
      keepaliveInterval: 15_000,
      keepaliveCountMax: 4,
    },
    (connection, info) => {
      const from = `${info.ip}:${info.port}`;
      // Frames are many small writes: without this, Nagle's algorithm holds each one back
      // until the client's delayed ACK (40 ms on Linux), as OpenSSH's sshd also avoids.
      (connection as unknown as { setNoDelay(on: boolean): void }).setNoDelay(true);
      connections.add(connection);
      // This connection's sessions, dropped when it closes.
      const mine = new Set<LiveSession>();
      const username = authenticate(connection, {
        authorizedKeys: options.authorizedKeys,
        log,
      });
      connection.on("ready", () => {
        connection.on("session", (accept) => {
          handleSessionChannel(accept(), (request) => {
            const entry = startClient(request, username(), from);
            if (entry) {
              mine.add(entry);
              void entry.done.then(() => mine.delete(entry));
            }
            return entry;
          });
        });
      });
      refuseForwarding(connection);
      connection.on("error", (error: Error) => {
        // ECONNRESET and friends: the client is gone; 'close' cleans up.
        log(`parley ssh: connection from ${from}: ${error.message}`);
      });
      connection.on("close", () => {
        connections.delete(connection);
        for (const entry of mine) entry.drop();
      });
    },
  );

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error: Error) => log(`parley ssh: ${error.message}`));
  const port = (server.address() as AddressInfo).port;

  let closed: Promise<void> | undefined;
  return {
    host,
    port,
    liveSessions: () => sessions.size(),
    threads,
    close() {
      closed ??= (async () => {
        const listening = new Promise<void>((resolve) => server.close(() => resolve()));
        await sessions.stopAll();
        // Let clients hang up themselves once their session is over: OpenSSH drops output
        // it has not written yet when the server disconnects first, and the terminal would
        // stay in the alternate screen.
        const deadline = Date.now() + HANG_UP_GRACE_MS;
        while (connections.size > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        for (const connection of connections) connection.end();
        await listening;
        await pool.close();
      })();
      return closed;
    },
  };
}
