// The full-screen client served over SSH: one ssh2 Server, one embedded API server shared
// by everyone, and per SSH session its own client (an Ink instance, on a worker thread:
// src/ssh/pool.ts) drawing on the session's channel, signed in as the demo user named by
// the SSH user name. Two people connecting as alice and bob chat live through the shared
// API server.
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import ssh2, {
  type Connection,
  type ParsedKey,
  type PseudoTtyInfo,
  type ServerChannel,
} from "ssh2";
import type { DemoUser } from "../server/index.ts";
import { checkKey, type KeyAttempt } from "./keys.ts";
import { type Crash, inThreadPool, workerPool } from "./pool.ts";

export type SshServerOptions = {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The host key, a private key in OpenSSH or PEM format. */
  hostKey: string;
  /** The API server every session talks to, and who may sign in. */
  api: { url: string; users: readonly DemoUser[] };
  /**
   * The client keys that may sign in, asked on every attempt (so an edited
   * authorized_keys file counts at once); `null`: any key that proves itself (--demo).
   */
  authorizedKeys: (() => readonly ParsedKey[]) | null;
  /** One line per event (connect, leave, refusals, errors). */
  log?: (line: string) => void;
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

type Live = {
  user: string;
  resize(columns: number, rows: number): void;
  /** Ends the client and gives the terminal back (server shutdown). */
  stop(): void;
  /** The client's side is gone: end without writing anything more. */
  drop(): void;
  done: Promise<void>;
};

/** Only what changes how the client looks; everything else a client sends is refused. */
const ENV_ALLOWED = new Set(["NO_COLOR"]);
const AUTH_TIMEOUT_MS = 30_000;
const MAX_AUTH_ATTEMPTS = 20;
const HANG_UP_GRACE_MS = 1000;

/** What a session without a terminal (ssh -T, a command, a pipe) is told. */
export const NEEDS_PTY =
  "parley: this is a full-screen app and needs a terminal; connect with ssh -t and no command.";

export function dumbTermMessage(term: string): string {
  return `parley: TERM=${term || "(unset)"} cannot move the cursor or switch screens, which a full-screen app needs. Try TERM=xterm-256color.`;
}

/** A name the client chose, safe to print in a terminal or a log. */
function printable(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, "?").slice(0, 64);
}

export function unknownUserMessage(name: string, users: readonly DemoUser[]): string {
  const names = users.map((u) => u.username).join(", ");
  return `parley: no user "${printable(name)}" here; sign in as one of ${names} (the ssh user name picks who you are).`;
}

export async function startSshServer(options: SshServerOptions): Promise<SshServer> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? (() => {});
  const maxSessions = options.maxSessions ?? 64;
  // Ink's waitUntilExit adds a 'beforeExit' listener per mounted instance (removed when it
  // unmounts): N sessions are N listeners, not a leak, and Node's warning at 11 is noise.
  if (process.getMaxListeners() < maxSessions + 10) process.setMaxListeners(maxSessions + 10);
  const users = new Map(options.api.users.map((u) => [u.username, u]));
  const threads = options.hostScript ? (options.hostThreads ?? defaultHostThreads()) : 0;
  const pool =
    options.hostScript && threads > 0
      ? workerPool(options.hostScript, threads, log)
      : inThreadPool();
  let nextSessionId = 1;
  const live = new Set<Live>();
  const connections = new Set<Connection>();
  let closing = false;

  const plural = (n: number) => `${n} live session${n === 1 ? "" : "s"}`;

  /** Says why, on the client's stderr (it shows in their terminal), and closes with 1. */
  function refuse(channel: ServerChannel, message: string): void {
    channel.stderr.write(`${message}\r\n`);
    channel.exit(1);
    channel.end();
  }

  function serveClient(
    channel: ServerChannel,
    user: DemoUser,
    pty: PseudoTtyInfo,
    env: NodeJS.ProcessEnv,
    from: string,
  ): Live {
    const id = nextSessionId++;
    let open = true;
    const onData = (data: Buffer) => pool.send({ type: "input", id, data });
    const onClose = () => {
      open = false;
      pool.send({ type: "drop", id });
    };
    channel.on("data", onData);
    channel.once("close", onClose);
    channel.on("error", (error: Error) => log(`parley ssh: ${user.username}: ${error.message}`));

    const finish = (crash?: Crash) => {
      if (crash !== undefined) {
        log(`parley ssh: ${user.username}: the client failed: ${crash.detail}`);
      }
      if (open) {
        if (crash !== undefined) channel.stderr.write(`parley: ${crash.message}\r\n`);
        if (closing) channel.stderr.write("parley: the server was stopped.\r\n");
        channel.exit(crash === undefined ? 0 : 1);
        channel.end();
      }
      channel.off("data", onData);
      channel.off("close", onClose);
      live.delete(entry);
      log(`parley ssh: ${user.username} (${from}) left; ${plural(live.size)}`);
    };
    const ended = Promise.withResolvers<void>();
    const entry: Live = {
      user: user.username,
      resize: (columns, rows) => pool.send({ type: "resize", id, columns, rows }),
      stop: () => pool.send({ type: "stop", id }),
      drop: onClose,
      done: ended.promise,
    };
    live.add(entry);
    pool.open(
      {
        type: "open",
        id,
        username: user.username,
        token: user.token,
        apiUrl: options.api.url,
        columns: pty.cols > 0 ? pty.cols : 80,
        rows: pty.rows > 0 ? pty.rows : 24,
        env: Object.fromEntries(
          Object.entries(env).filter((pair): pair is [string, string] => pair[1] !== undefined),
        ),
      },
      {
        output: (data) => {
          if (open) channel.write(data);
        },
        done: (crash) => {
          finish(crash);
          ended.resolve();
        },
      },
    );
    log(`parley ssh: ${user.username} (${from}) signed in; ${plural(live.size)}`);
    return entry;
  }

  function onSessionChannel(
    session: ssh2.Session,
    username: string,
    from: string,
    mine: Set<Live>,
  ): void {
    let pty: PseudoTtyInfo | undefined;
    let current: Live | undefined;
    const env: NodeJS.ProcessEnv = {};
    session.on("pty", (accept, _reject, info) => {
      pty = info;
      accept?.();
    });
    session.on("window-change", (accept, _reject, info) => {
      if (pty) {
        pty.cols = info.cols;
        pty.rows = info.rows;
      }
      current?.resize(info.cols > 0 ? info.cols : 80, info.rows > 0 ? info.rows : 24);
      accept?.();
    });
    session.on("env", (accept, reject, info) => {
      if (ENV_ALLOWED.has(info.key)) {
        env[info.key] = info.val;
        accept?.();
      } else {
        reject?.();
      }
    });
    session.on("exec", (accept) => {
      refuse(
        accept(),
        "parley: this server runs the chat client only, not commands; connect without one.",
      );
    });
    for (const name of ["x11", "auth-agent", "signal", "subsystem", "sftp"]) {
      session.on(name, (_accept: unknown, reject?: () => void) => reject?.());
    }
    session.once("shell", (accept) => {
      const channel = accept();
      if (!pty) return refuse(channel, NEEDS_PTY);
      const term = pty.term ?? "";
      if (term === "" || term === "dumb") return refuse(channel, dumbTermMessage(term));
      const user = users.get(username);
      if (!user) {
        log(`parley ssh: refused unknown user "${printable(username)}" (${from})`);
        return refuse(channel, unknownUserMessage(username, options.api.users));
      }
      if (closing) return refuse(channel, "parley: the server is shutting down.");
      if (live.size >= maxSessions) {
        return refuse(
          channel,
          `parley: this server is full (${maxSessions} sessions); try again later.`,
        );
      }
      const sessionEnv: NodeJS.ProcessEnv = { ...env, TERM: term };
      // OSC 52 and notifications need tmux's passthrough when the client's terminal is tmux.
      if (term.startsWith("tmux")) sessionEnv.TMUX = "1";
      const entry = serveClient(channel, user, pty, sessionEnv, from);
      current = entry;
      mine.add(entry);
      void entry.done.then(() => {
        mine.delete(entry);
        current = undefined;
      });
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
      // Frames are many small writes: without this, Nagle's algorithm holds each one back
      // until the client's delayed ACK (40 ms on Linux), as OpenSSH's sshd also avoids.
      (connection as unknown as { setNoDelay(on: boolean): void }).setNoDelay(true);
      connections.add(connection);
      const mine = new Set<Live>();
      let username: string | undefined;
      let attempts = 0;
      const authTimer = setTimeout(() => connection.end(), AUTH_TIMEOUT_MS);
      connection.on("authentication", (ctx) => {
        if (ctx.method !== "publickey") {
          // "none" is how every client starts; passwords and keyboard-interactive are never taken.
          ctx.reject(["publickey"]);
          return;
        }
        const attempt: KeyAttempt = {
          algo: ctx.key.algo,
          data: ctx.key.data,
          signature: ctx.signature,
          blob: ctx.blob,
          hashAlgo: ctx.hashAlgo,
        };
        let allowed: readonly ParsedKey[] | null;
        try {
          allowed = options.authorizedKeys ? options.authorizedKeys() : null;
        } catch (error) {
          log(`parley ssh: ${(error as Error).message}`);
          allowed = [];
        }
        if (!checkKey(attempt, allowed)) {
          if (++attempts >= MAX_AUTH_ATTEMPTS) connection.end();
          ctx.reject(["publickey"]);
          return;
        }
        if (ctx.signature) username = ctx.username;
        ctx.accept();
      });
      connection.on("ready", () => {
        clearTimeout(authTimer);
        connection.on("session", (accept) => {
          onSessionChannel(accept(), username ?? "", from, mine);
        });
      });
      // Port forwarding and other global requests are not offered.
      connection.on("request", (_accept, reject) => reject?.());
      connection.on("tcpip", (_accept, reject) => reject());
      connection.on("error", (error: Error) => {
        // ECONNRESET and friends: the client is gone; 'close' cleans up.
        log(`parley ssh: connection from ${from}: ${error.message}`);
      });
      connection.on("close", () => {
        clearTimeout(authTimer);
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
    liveSessions: () => live.size,
    threads,
    close() {
      closed ??= (async () => {
        closing = true;
        const listening = new Promise<void>((resolve) => server.close(() => resolve()));
        const sessions = [...live];
        for (const entry of sessions) entry.stop();
        await Promise.all(sessions.map((entry) => entry.done));
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
