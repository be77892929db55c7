// The full-screen client served over SSH: one ssh2 Server, one embedded API server shared
// by everyone, and per SSH session its own client (an Ink instance, on a worker thread:
// src/ssh/pool.ts) drawing on the session's channel, signed in as the demo user named by
// the SSH user name. Two people connecting as alice and bob chat live through the shared
// API server. This file composes the parts: who may sign in (auth.ts), what a connection
// may ask for (channel.ts), and the live sessions (sessions.ts).
import { createServer, type Socket } from "node:net";
import ssh2, { type Connection } from "ssh2";
import { logEscape, logLine, logQuote } from "../log-escape.ts";
import type { DemoUser } from "../server/index.ts";
import { listenOn } from "../server/listen.ts";
import { type AuthorizedKey, authenticate, type SignedIn } from "./auth.ts";
import { handleSessionChannel, refuse, refuseForwarding, type ShellRequest } from "./channel.ts";
import { channelTerminal } from "./channel-terminal.ts";
import { failureTracker } from "./failures.ts";
import { addressOf, connectionGate } from "./gate.ts";
import { giveBackWhenIdle } from "./idle-gc.ts";
import { limitedLog } from "./log-limit.ts";
import { sessionPool } from "./pool.ts";
import { createSessionRegistry, type Link, type LiveSession, type SessionApi } from "./sessions.ts";

/** Caps an operator may set (`parley ssh --max-…`); unset, the defaults below. */
export type SshLimits = {
  /** Live client sessions at most; more are told to come back later. Default 64. */
  maxSessions?: number;
  /** Sessions one SSH connection may have open at once. Default 4. */
  maxSessionsPerConnection?: number;
  /** Live sessions of one user at once. Default 8. */
  maxSessionsPerUser?: number;
  /** A session nobody typed in for this long is ended; unset: never. */
  idleMs?: number | undefined;
  /** TCP connections at most, signed in or not. Default 200. */
  maxConnections?: number;
  /** TCP connections from one address at most. Default 20. */
  maxConnectionsPerAddress?: number;
};

export type SshServerOptions = SshLimits & {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The host key, a private key in OpenSSH or PEM format. */
  hostKey: string;
  /**
   * The API server every session talks to, and who may sign in (read at each sign-in: it
   * may change). `world`: each session gets an API of its own instead (a demo world per visitor).
   */
  api: {
    url: string;
    users: readonly DemoUser[];
    world?: ((username: string) => Promise<SessionApi>) | undefined;
  };
  /**
   * The client keys that may sign in, asked on every attempt (so an edited
   * authorized_keys file counts at once); `null`: any key that proves itself (--demo).
   */
  authorizedKeys: (() => readonly AuthorizedKey[]) | null;
  /** One line per event (connect, leave, refusals, errors). */
  log?: (line: string) => void;
  /** Where each user's drafts and unsent changes are kept between sessions; none if unset. */
  keepDir?: string;
  /** How long a session may go without reading its screen before it is dropped (tests). */
  stuckMs?: number;
  /** How long a connection has from accept to sign in. Default 20 s. */
  signInMs?: number;
  /**
   * The built worker script (dist/ssh-worker.cjs) that runs sessions' clients on worker
   * threads; without it they run on this thread (running from source, some tests).
   */
  hostScript?: URL;
  /** Worker threads for the sessions. Default: one per core but one, 1 to 8; 0: this thread. */
  hostThreads?: number;
};

export type SshServer = {
  host: string;
  port: number;
  /** Client sessions on screen now. */
  liveSessions(): number;
  /** Worker threads that run the sessions' clients; 0: this thread. */
  threads: number;
  /** Ends the sessions of someone who may no longer sign in (removed), logged: how many. */
  endSessionsOf(username: string): number;
  /** Ends every session (each one's terminal is given back), then stops listening. */
  close(): Promise<void>;
};

/** A name the client chose, safe to print in a terminal or a log. */
function printable(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, "?").slice(0, 64);
}

/** Says only that the name is not known: which names are is not a stranger's business. */
export function unknownUserMessage(name: string): string {
  return `parley: no user "${printable(name)}" here (the ssh user name picks who you are).`;
}

const HANG_UP_GRACE_MS = 1000;

export async function startSshServer(options: SshServerOptions): Promise<SshServer> {
  const host = options.host ?? "127.0.0.1";
  const write = options.log ?? (() => {});
  // Whatever a line holds (a client's name, an error's message), it reaches the log as one
  // printable line: no escape sequence for whoever watches it in a terminal.
  const log = (line: string) => write(logLine(line));
  const maxSessions = options.maxSessions ?? 64;
  const maxPerConnection = options.maxSessionsPerConnection ?? 4;
  const maxPerUser = options.maxSessionsPerUser ?? 8;
  // Ink's waitUntilExit adds a 'beforeExit' listener per mounted instance (removed when it
  // unmounts): N sessions are N listeners, not a leak, and Node's warning at 11 is noise.
  if (process.getMaxListeners() < maxSessions + 10) process.setMaxListeners(maxSessions + 10);
  const userNamed = (name: string) => options.api.users.find((u) => u.username === name);
  const { pool, threads } = sessionPool(options.hostScript, options.hostThreads, log);
  const sessions = createSessionRegistry({
    pool,
    keepDir: options.keepDir,
    maxSessions,
    log,
    stuckMs: options.stuckMs,
    idleMs: options.idleMs,
    // This thread's heap too (the SSH connections' and the API's), back to its size before.
    onIdle: giveBackWhenIdle(() => sessions.size() === 0),
  });
  const connections = new Set<Connection>();
  const noisy = limitedLog(log);
  const failures = failureTracker();
  const gate = connectionGate({
    maxConnections: options.maxConnections ?? 200,
    maxPerAddress: options.maxConnectionsPerAddress ?? 20,
    signInMs: options.signInMs ?? 20_000,
    log: noisy,
  });

  /** Why a shell is turned away, for its terminal and for the log; undefined: it is not. */
  function refusal(
    username: string,
    onConnection: number,
  ): { told: string; logged: string } | undefined {
    if (!userNamed(username)) {
      return { told: unknownUserMessage(username), logged: "unknown user" };
    }
    if (sessions.closing()) return { told: "parley: the server is shutting down.", logged: "" };
    if (sessions.isFull()) {
      return {
        told: `parley: this server is full (${maxSessions} sessions); try again later.`,
        logged: `server full (${maxSessions} sessions)`,
      };
    }
    if (onConnection >= maxPerConnection) {
      return {
        told: `parley: one connection may have ${maxPerConnection} sessions at most; close one first.`,
        logged: `${maxPerConnection} sessions on this connection`,
      };
    }
    // In worlds of their own, everyone may be alice: one visitor's sessions are not another's.
    if (!options.api.world && sessions.countOf(username) >= maxPerUser) {
      return {
        told: `parley: ${printable(username)} has ${maxPerUser} sessions open, the most one user may have; close one first.`,
        logged: `${maxPerUser} sessions of this user`,
      };
    }
    return undefined;
  }

  function startClient(
    request: ShellRequest,
    { username, key }: SignedIn,
    from: string,
    onConnection: number,
    link: Link,
  ) {
    const why = refusal(username, onConnection);
    if (why !== undefined) {
      if (why.logged) {
        log(`parley ssh: refused ${logQuote(username, 64)} (${from}): ${why.logged}`);
      }
      refuse(request.channel, why.told);
      return undefined;
    }
    const user = userNamed(username)!;
    return sessions.start({
      terminal: channelTerminal(request),
      username,
      api: options.api.world
        ? () => options.api.world!(username)
        : async () => ({ url: options.api.url, token: user.token }),
      from,
      link,
      key,
    });
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
      connections.add(connection);
      // This connection's sessions, dropped when it closes.
      const mine = new Set<LiveSession>();
      const socket = (connection as unknown as { _sock: Socket })._sock;
      connection.once("ready", () => gate.signedIn(socket));
      const link: Link = {
        backlog: () => socket.writableLength,
        cut: () => socket.destroy(),
      };
      const signedIn = authenticate(connection, {
        authorizedKeys: options.authorizedKeys,
        log,
        address: addressOf(socket),
        port: info.port,
        failures,
        noisy,
      });
      connection.on("ready", () => {
        let channels = 0;
        connection.on("session", (accept, reject) => {
          // Channels without a shell yet count too: a flood of them would hold memory.
          if (channels >= maxPerConnection) {
            noisy(
              `parley ssh: refused a channel (${from}): ${maxPerConnection} on this connection`,
            );
            reject();
            return;
          }
          channels++;
          const session = accept();
          session.once("close", () => channels--);
          handleSessionChannel(
            session,
            (request) => {
              const entry = startClient(request, signedIn()!, from, mine.size, {
                backlog: () => request.channel.writableLength + link.backlog(),
                cut: link.cut,
              });
              if (entry) {
                mine.add(entry);
                void entry.done.then(() => mine.delete(entry));
              }
              return entry;
            },
            (why) =>
              noisy(`parley ssh: refused ${logQuote(signedIn()!.username, 64)} (${from}): ${why}`),
          );
        });
      });
      refuseForwarding(connection);
      connection.on("error", (error: Error) => {
        // ECONNRESET and friends: the client is gone; 'close' cleans up.
        log(`parley ssh: connection from ${from}: ${logEscape(error.message)}`);
      });
      connection.on("close", () => {
        connections.delete(connection);
        for (const entry of mine) entry.drop();
      });
    },
  );

  // parley accepts the TCP connections itself and hands ssh2 those the gate lets in.
  const listener = createServer((socket) => {
    if (!gate.admit(socket)) return;
    // Frames are many small writes: without this, Nagle's algorithm holds each one back
    // until the client's delayed ACK (40 ms on Linux), as OpenSSH's sshd also avoids.
    socket.setNoDelay(true);
    server.injectSocket(socket);
  });
  const port = await listenOn(listener, options.port ?? 0, host);
  // Accepting fails when the process is out of file descriptors (EMFILE): said, not fatal.
  listener.on("error", (error: Error) => noisy(`parley ssh: ${logEscape(error.message)}`));
  server.on("error", (error: Error) => log(`parley ssh: ${logEscape(error.message)}`));

  let closed: Promise<void> | undefined;
  return {
    host,
    port,
    liveSessions: () => sessions.size(),
    endSessionsOf(username) {
      const ended = sessions.endUser(username, "your access to this server was removed.");
      if (ended > 0) {
        log(
          `parley ssh: ended ${ended} session${ended === 1 ? "" : "s"} of ${logQuote(username, 64)}: removed`,
        );
      }
      return ended;
    },
    threads,
    close() {
      closed ??= (async () => {
        const listening = new Promise<void>((resolve) => listener.close(() => resolve()));
        await sessions.stopAll();
        // Let clients hang up themselves once their session is over: OpenSSH drops output
        // it has not written yet when the server disconnects first, and the terminal would
        // stay in the alternate screen.
        const deadline = Date.now() + HANG_UP_GRACE_MS;
        while (connections.size > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        for (const connection of connections) connection.end();
        gate.closeWaiting();
        await listening;
        await pool.close();
      })();
      return closed;
    },
  };
}
