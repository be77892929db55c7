// The live client sessions of `parley ssh` and `parley web`: each one a client in the host
// pool (src/ssh/pool.ts) joined to its terminal (an SSH channel, a browser's WebSocket:
// bytes both ways, its size, its end), at most `maxSessions` of them, each logged as it
// comes and goes; and the stop of them all when the server closes.
import { randomUUID } from "node:crypto";
import { logEscape } from "../log-escape.ts";
import type { OnChannel } from "./channel.ts";
import { latestOnly } from "./coalesce.ts";
import { inputLimit } from "./input-limit.ts";
import type { Crash, HostPool } from "./pool.ts";

export type LiveSession = OnChannel & {
  user: string;
  /** The name of this session's drafts file (src/ssh/drafts.ts). */
  keepTag: string;
  /** The client's side is gone: end without writing anything more. */
  drop(): void;
};

/**
 * The terminal a session draws on, whatever carries it: what it was opened with, bytes out,
 * and its end.
 */
export type SessionTerminal = {
  columns: number;
  rows: number;
  env: Record<string, string>;
  write(data: string): void;
  /** The session is over: `notes` are told to the person (one line each), then it closes. */
  end(code: number, notes: string[]): void;
  /** Typed bytes, the other side gone, an error; returns what stops listening. */
  listen(on: { data(bytes: Buffer): void; close(): void; error(error: Error): void }): () => void;
};

/** Where a session's client signs in: resolved once its world is ready. */
export type SessionApi = {
  url: string;
  token: string;
  /** The session ended: its world may go. */
  leave?: () => void;
};

export type SessionStart = {
  terminal: SessionTerminal;
  username: string;
  /** The API server and token the client uses (a visitor's demo world may be started first). */
  api: () => Promise<SessionApi>;
  from: string;
  link: Link;
  /** How the person signed in, for the log: a key's fingerprint, "a token", "the demo". */
  key: string;
};

/** What the session sees of its connection: bytes not yet sent, and how to cut it off. */
export type Link = {
  /** Bytes written but not yet sent to the client (its channel's and its socket's). */
  backlog(): number;
  /** Ends the connection at once, dropping what is unsent. */
  cut(): void;
};

/** Unsent output past which frames are skipped (the newest one is drawn when it drains). */
export const BACKLOG_LIMIT = 1024 * 1024;
/** A client stuck past the limit this long is dropped. */
export const STUCK_MS = 60_000;
const DRAIN_CHECK_MS = 200;
/** While a window is being resized, the screen is drawn at most this often (the last size). */
export const RESIZE_EVERY_MS = 250;

export type SessionRegistry = {
  size(): number;
  isFull(): boolean;
  /** Live sessions of this user. */
  countOf(username: string): number;
  /** Set once the server stops: no new sessions, and the live ones are told why they end. */
  closing(): boolean;
  /** Runs a client on a terminal. */
  start(session: SessionStart): LiveSession;
  /** Ends every session (each one's terminal is given back) and waits for them. */
  stopAll(): Promise<void>;
  /** Ends the sessions of a user who may no longer sign in, telling them why: how many. */
  endUser(username: string, why: string): number;
};

const minutes = (ms: number) => {
  const m = Math.round(ms / 60_000);
  return m >= 1 ? `${m} minute${m === 1 ? "" : "s"}` : `${Math.round(ms / 1000)} s`;
};

export function createSessionRegistry(options: {
  pool: HostPool;
  /** Who says so in the log: "parley ssh" (the default), "parley web". */
  name?: string;
  /** Where each user's drafts and unsent changes are kept from one session to the next. */
  keepDir?: string;
  maxSessions: number;
  log: (line: string) => void;
  /** How long a client may stay stuck past BACKLOG_LIMIT. Default STUCK_MS. */
  stuckMs?: number;
  /** Called when the last live session has left. */
  onIdle?: () => void;
  /** A session nobody typed in for this long is ended, and told why; unset: never. */
  idleMs?: number;
}): SessionRegistry {
  const { pool, log } = options;
  const live = new Set<LiveSession & { stop(why?: string): boolean }>();
  let nextSessionId = 1;
  let closing = false;
  const plural = (n: number) => `${n} live session${n === 1 ? "" : "s"}`;
  const name = options.name ?? "parley ssh";

  function start({ terminal, username, api, from, link, key }: SessionStart): LiveSession {
    const user = { username };
    const id = nextSessionId++;
    let open = true;
    // Back-pressure: a client that stops reading must not make the server queue its frames
    // without end (a paused 2000x2000 session once held 2.36 GB). Past the limit, frames
    // are skipped, and the whole screen is drawn once the client has caught up.
    let held: { since: number; timer: NodeJS.Timeout } | undefined;
    const stuckMs = options.stuckMs ?? STUCK_MS;
    const unhold = () => {
      clearInterval(held?.timer);
      held = undefined;
    };
    const watchBacklog = () => {
      if (held || link.backlog() <= BACKLOG_LIMIT) return;
      pool.send({ type: "hold", id });
      log(`${name}: ${user.username} (${from}) is not reading: its frames are skipped`);
      held = {
        since: Date.now(),
        timer: setInterval(() => {
          if (!open) return unhold();
          if (link.backlog() <= BACKLOG_LIMIT / 4) {
            unhold();
            pool.send({ type: "resume", id });
            log(`${name}: ${user.username} (${from}) reads again: its screen is drawn afresh`);
          } else if (Date.now() - held!.since > stuckMs) {
            unhold();
            log(
              `${name}: ${user.username} (${from}) dropped: it read none of its screen for ${Math.round(stuckMs / 1000)} s`,
            );
            link.cut();
          }
        }, DRAIN_CHECK_MS),
      };
      held.timer.unref();
    };
    const typed = inputLimit();
    // A public demo's visitor who walked away gives back their session and its world.
    const idleMs = options.idleMs;
    let idle: NodeJS.Timeout | undefined;
    const stillThere = () => {
      if (idleMs === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        log(`${name}: ${user.username} (${from}) idle for ${minutes(idleMs)}: ended`);
        entry.stop(`nothing was typed for ${minutes(idleMs)}, so the session was ended.`);
      }, idleMs);
      idle.unref();
    };
    stillThere();
    const onData = (data: Buffer) => {
      stillThere();
      const { pass, first } = typed.take(data);
      if (pass && opened) pool.send({ type: "input", id, data: pass });
      if (first && opened) pool.send({ type: "cut", id });
    };
    // The size now, for a client opened once its world is ready.
    const size = { columns: terminal.columns, rows: terminal.rows };
    const resizes = latestOnly(({ columns, rows }: { columns: number; rows: number }) => {
      size.columns = columns;
      size.rows = rows;
      if (opened) pool.send({ type: "resize", id, columns, rows });
    }, RESIZE_EVERY_MS);
    let opened = false;
    let finished = false;
    let leave: (() => void) | undefined;
    const onClose = () => {
      if (!open) return;
      open = false;
      if (opened) pool.send({ type: "drop", id });
      else finish();
    };
    const unlisten = terminal.listen({
      data: onData,
      close: onClose,
      error: (error: Error) => log(`${name}: ${user.username}: ${logEscape(error.message)}`),
    });

    const finish = (crash?: Crash) => {
      if (finished) return;
      finished = true;
      if (crash !== undefined) {
        log(`${name}: ${user.username}: the client failed: ${logEscape(crash.detail, 4000)}`);
      }
      if (open) {
        const notes: string[] = [];
        if (crash !== undefined) notes.push(`parley: ${crash.message}`);
        if (closing) notes.push("parley: the server was stopped.");
        else if (endedWhy !== undefined) notes.push(`parley: ${endedWhy}`);
        terminal.end(crash === undefined ? 0 : 1, notes);
      }
      unlisten();
      clearTimeout(idle);
      resizes.stop();
      unhold();
      live.delete(entry);
      leave?.();
      log(`${name}: ${user.username} (${from}) left; ${plural(live.size)}`);
      if (live.size === 0) options.onIdle?.();
      ended.resolve();
    };
    const ended = Promise.withResolvers<void>();
    let endedWhy: string | undefined;
    let stopping = false;
    const keepTag = randomUUID().slice(0, 8);
    const liveTags = [...live].filter((e) => e.user === user.username).map((e) => e.keepTag);
    const entry = {
      user: user.username,
      keepTag,
      resize: (columns: number, rows: number) => resizes.push({ columns, rows }),
      /**
       * Ends the client and gives the terminal back (server shutdown): false when it was
       * already ending (two ways of hearing of one removal end it once, said once).
       */
      stop: (why?: string) => {
        if (stopping) return false;
        stopping = true;
        endedWhy = why;
        if (opened) pool.send({ type: "stop", id });
        else finish();
        return true;
      },
      drop: onClose,
      done: ended.promise,
    };
    live.add(entry);
    api().then(
      (ready) => {
        if (finished) {
          ready.leave?.();
          return;
        }
        leave = ready.leave;
        opened = true;
        pool.open(
          {
            type: "open",
            id,
            username: user.username,
            token: ready.token,
            apiUrl: ready.url,
            keepDir: options.keepDir,
            keepTag,
            liveTags,
            columns: size.columns,
            rows: size.rows,
            env: terminal.env,
            serverLabel: name,
          },
          {
            output: (data) => {
              if (!open || held) return;
              terminal.write(data);
              watchBacklog();
            },
            done: (crash) => finish(crash),
          },
        );
      },
      (error: unknown) =>
        finish({
          message: error instanceof Error ? error.message : String(error),
          detail: String(error),
        }),
    );
    log(`${name}: ${user.username} (${from}) signed in with ${key}; ${plural(live.size)}`);
    return entry;
  }

  return {
    size: () => live.size,
    isFull: () => live.size >= options.maxSessions,
    countOf: (username) => {
      let count = 0;
      for (const entry of live) if (entry.user === username) count++;
      return count;
    },
    closing: () => closing,
    start,
    endUser(username, why) {
      let ended = 0;
      for (const entry of [...live]) if (entry.user === username && entry.stop(why)) ended++;
      return ended;
    },
    async stopAll() {
      closing = true;
      const sessions = [...live];
      for (const entry of sessions) entry.stop();
      await Promise.all(sessions.map((entry) => entry.done));
    },
  };
}
