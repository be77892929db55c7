// The instance's side of /v1/events: ONE reader of the events table for all streams, woken
// when events are appended (in process on SQLite; LISTEN on PostgreSQL, so events appended
// by any instance), and a fan-out in memory keyed by user id. One timer sends every
// stream's keep-alive, re-checks the tokens that opened them, and prunes old events.

import type { ServerResponse } from "node:http";
import type { Presence } from "../demo/presence.ts";
import {
  EVENTS_KEPT_COUNT,
  EVENTS_KEPT_SECONDS,
  type Store,
  type StoredEvent,
} from "../store/store.ts";
import { hashToken } from "../tokens.ts";
import { createRenderer } from "./render.ts";
import { EventStream } from "./stream.ts";

export type EventOptions = {
  /** How often each stream gets `: keep-alive` and its token is checked again; default 20 s. */
  keepAliveMs?: number;
  /**
   * Bytes a stream may have waiting before it stops taking live events and is caught up
   * from the store instead (stream.ts); default 256 KiB.
   */
  maxQueuedBytes?: number;
  /** A stream whose client takes nothing of what waits for this long is cut; default 30 s. */
  stallMs?: number;
  /** Streams per user; a new one beyond it ends that user's oldest. Default 16. */
  perUser?: number;
  /** Events kept for replay: newer than `seconds` or among the newest `count` (1 h, 10,000). */
  retention?: { seconds: number; count: number; pruneEveryMs?: number };
};

export type EventHub = {
  /** Starts the reader from the newest event; before the server takes requests. */
  start(): Promise<void>;
  /** Serves one stream on `response` until the client or the server ends it. */
  open(
    user: { id: string; token: string },
    response: ServerResponse,
    lastEventId?: string,
  ): Promise<void>;
  /** Ends the streams whose token is no longer valid; call it when tokens change. */
  revalidate(): Promise<void>;
  /**
   * Ends the user's streams: all of them (`all`), else those whose token no longer signs
   * in. The tokens of the streams it ended.
   */
  endStreamsOf(userId: string, all: boolean): Promise<string[]>;
  /** Each `access.ended` event the reader reads, whichever instance or process wrote it. */
  onAccessEnded(listener: (event: StoredEvent) => void): void;
  /** Streams held by this instance. */
  streams(): number;
  /** Of them, those catching up from the store (their clients read slower than events come). */
  behind(): number;
  /** The newest event this instance's reader has handed to its streams. */
  readThrough(): number;
  close(): void;
};

/** Events read at once; the reader lets the sockets flush between two batches. */
const BATCH = 200;
const PRUNE_EVERY_MS = 60_000;
const RETRY_MS = 1000;
/**
 * Under a run of writes, the reader reads at most once in this span: each read then carries
 * the events of several writes, and each stream gets them in one write to its socket, not
 * one per event (at 250 messages a second a third of the server's time was those writes).
 * A wake after a quiet spell reads at once.
 */
const READ_SPACING_MS = 10;
/** A Last-Event-ID this server hands out: a decimal event id. */
const CURSOR = /^\d{1,15}$/;

export function createEventHub(
  store: Store,
  /** Told who holds a stream, when the demo users answer (they do not for who is signed in). */
  presence: Presence | undefined,
  /** One line; with the error that made it, so the caller can tell an outage from a fault. */
  log: (line: string, error?: unknown) => void,
  options: EventOptions = {},
  /** Tokens this process gave `parley ssh` sessions (never stored) -> user id. */
  localTokens: ReadonlyMap<string, string> = new Map(),
): EventHub {
  const keepAliveMs = options.keepAliveMs ?? 20_000;
  const limits = {
    maxQueuedBytes: options.maxQueuedBytes ?? 256 * 1024,
    stallMs: options.stallMs ?? 30_000,
  };
  const perUser = options.perUser ?? 16;
  const retention = options.retention ?? { seconds: EVENTS_KEPT_SECONDS, count: EVENTS_KEPT_COUNT };
  const byUser = new Map<string, Set<EventStream>>();
  let count = 0;
  let readThrough = 0;
  /** The read under way, with the reads asked for while it ran. */
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let closed = false;
  let keepAlive: NodeJS.Timeout | undefined;
  let pruning: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let lastReadAt = Number.NEGATIVE_INFINITY;
  let spaced: NodeJS.Timeout | undefined;
  const render = createRenderer(store);
  const accessListeners: ((event: StoredEvent) => void)[] = [];

  async function deliver(event: StoredEvent): Promise<void> {
    for (const userId of event.recipients) {
      if (!byUser.has(userId)) continue;
      const data = await render.render(event, userId);
      if (data === undefined) continue;
      // Looked up again: the user's streams may have come or gone meanwhile.
      for (const stream of byUser.get(userId) ?? []) stream.deliver(event.id, event.type, data);
    }
  }

  /**
   * Reads what was appended since the last read; a wake during a read reads again after.
   * Resolves once everything appended before the call has been read.
   */
  function read(): Promise<void> {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = readAll().finally(() => {
      reading = undefined;
    });
    return reading;
  }

  async function readAll(): Promise<void> {
    try {
      do {
        readAgain = false;
        for (;;) {
          const batch = await store.events.after(readThrough, BATCH);
          if (count > 0) await render.prepare(batch.filter(isHeardHere));
          for (const event of batch) {
            if (event.type === "access.ended")
              for (const listener of accessListeners) listener(event);
            // After it is delivered: a failed read starts again with it (streams skip
            // what they have).
            if (count > 0) await deliver(event);
            readThrough = event.id;
          }
          if (batch.length < BATCH || closed) break;
          // The responses flush only once this turn of the event loop ends (node corks
          // them until then): a long run of reads must let them go between batches.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } while (readAgain && !closed);
    } catch (error) {
      if (closed) return;
      log(`events: reading failed, trying again: ${(error as Error).message}`, error);
      retry ??= setTimeout(() => {
        retry = undefined;
        void read();
      }, RETRY_MS);
    }
  }

  /** Reads now, or once READ_SPACING_MS has passed since the last read began. */
  function wake(): void {
    if (closed || spaced) return;
    const wait = lastReadAt + READ_SPACING_MS - performance.now();
    const go = () => {
      spaced = undefined;
      lastReadAt = performance.now();
      void read();
    };
    if (wait <= 0) go();
    else spaced = setTimeout(go, wait);
  }

  const isHeardHere = (event: StoredEvent) => event.recipients.some((id) => byUser.has(id));

  function remove(stream: EventStream): void {
    const streams = byUser.get(stream.userId);
    if (!streams?.delete(stream)) return;
    count--;
    if (streams.size === 0) byUser.delete(stream.userId);
  }

  /**
   * Sends a stream that is behind what it missed, from the store, as fast as its client
   * takes it, until it has reached the reader; then it is live again. Between two reads it
   * waits for the client to take what was written (stream.drained cuts one that stopped).
   */
  async function catchUp(stream: EventStream): Promise<void> {
    const renderOwn = createRenderer(store);
    try {
      while (await stream.drained()) {
        // Every event up to `reached` that is the user's comes in this read, or one after.
        const reached = readThrough;
        const batch = await store.events.after(stream.cursor, BATCH, stream.userId);
        await renderOwn.prepare(batch);
        let wrote = true;
        for (const event of batch) {
          const data = await renderOwn.render(event, stream.userId);
          if (data === undefined) stream.cursor = Math.max(stream.cursor, event.id);
          else if (!stream.send(event.id, event.type, data)) {
            wrote = false;
            break;
          }
        }
        if (!wrote || batch.length === BATCH) continue;
        stream.cursor = Math.max(stream.cursor, reached);
        // Decided in the same turn as the reader's position is read: nothing falls between.
        if (stream.cursor >= readThrough) {
          stream.behind = false;
          return;
        }
      }
    } catch (error) {
      log(`events: catching a stream up failed: ${(error as Error).message}`, error);
      stream.end();
    }
  }

  /**
   * Sends what came after `lastEventId`, or `reset` when that is no longer held, then what
   * came since, and goes live. The stream is behind from its opening on (open): nothing
   * live is written to it before the replay, which would come again, out of order, in it.
   */
  async function replay(stream: EventStream, lastEventId: string): Promise<void> {
    const { newest, pruned } = await store.events.bounds();
    const after = CURSOR.test(lastEventId) ? Number(lastEventId) : -1;
    if (after < pruned || after > newest) stream.reset(newest);
    else stream.cursor = after;
    await catchUp(stream);
  }

  /**
   * Ends the streams whose token no longer signs in. A token revoked, replaced or removed
   * went with an access.ended in the same transaction, which ends its streams and says why:
   * so once the check finds one gone, that event is read before anything is ended here
   * (the check may have seen a commit the last read had not). What is left (an expired
   * token) ends here.
   */
  async function revalidate(): Promise<void> {
    const gone = await withoutToken([...byUser.values()].flatMap((streams) => [...streams]));
    if (gone.length === 0) return;
    await read();
    for (const stream of gone) stream.end();
  }

  /** Of these streams, those whose token no longer signs in as their user. */
  async function withoutToken(all: readonly EventStream[]): Promise<EventStream[]> {
    if (all.length === 0) return [];
    // Each stored token hashed once (many streams of one client share a token).
    const hashes = new Map<string, string>();
    for (const { token } of all) {
      if (!localTokens.has(token) && !hashes.has(token)) hashes.set(token, hashToken(token));
    }
    const owners = await store.events.tokenOwners([...hashes.values()]);
    const present = new Set<string>();
    const gone: EventStream[] = [];
    for (const stream of all) {
      const hash = hashes.get(stream.token);
      const owner = localTokens.get(stream.token) ?? (hash && owners.get(hash));
      if (owner === stream.userId) present.add(stream.userId);
      else gone.push(stream);
    }
    // Holding a stream is being signed in (the demo users do not answer for them).
    if (presence) for (const userId of present) await presence.seen(userId);
    return gone;
  }

  async function endStreamsOf(userId: string, all: boolean): Promise<string[]> {
    const streams = [...(byUser.get(userId) ?? [])];
    const ended = all ? streams : await withoutToken(streams);
    for (const stream of ended) stream.end();
    return ended.map((stream) => stream.token);
  }

  function tick(): void {
    for (const streams of byUser.values()) {
      for (const stream of streams) stream.keepAlive();
    }
    revalidate().catch((error: unknown) => {
      if (!closed) log(`events: checking tokens failed: ${(error as Error).message}`, error);
    });
  }

  return {
    async start() {
      readThrough = (await store.events.bounds()).newest;
      store.events.onAppended(wake);
      keepAlive = setInterval(tick, keepAliveMs);
      keepAlive.unref();
      const prune = () =>
        store.events.prune(retention.seconds, retention.count).catch((error: unknown) => {
          if (!closed) log(`events: pruning failed: ${(error as Error).message}`, error);
        });
      void prune();
      pruning = setInterval(prune, retention.pruneEveryMs ?? PRUNE_EVERY_MS);
      pruning.unref();
    },

    async open(user, response, lastEventId) {
      const stream = new EventStream(user, response, limits, {
        close: () => remove(stream),
        behind: (late) => void catchUp(late),
      });
      response.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
      });
      response.flushHeaders();
      const streams = byUser.get(user.id) ?? new Set();
      byUser.set(user.id, streams);
      // The oldest goes: most often a connection its client has already given up on.
      for (const old of streams) {
        if (streams.size < perUser) break;
        old.end();
        remove(old);
      }
      streams.add(stream);
      count++;
      // From here the reader delivers to it; what came before is for the replay.
      stream.cursor = readThrough;
      if (lastEventId === undefined) return;
      stream.behind = true;
      try {
        await replay(stream, lastEventId);
      } catch (error) {
        log(`events: replay failed: ${(error as Error).message}`, error);
        stream.end();
      }
    },

    revalidate,
    endStreamsOf,
    onAccessEnded(listener) {
      accessListeners.push(listener);
    },
    streams: () => count,
    behind: () => {
      let behind = 0;
      for (const streams of byUser.values()) for (const s of streams) if (s.behind) behind++;
      return behind;
    },
    readThrough: () => readThrough,

    close() {
      closed = true;
      clearInterval(keepAlive);
      clearInterval(pruning);
      clearTimeout(retry);
      clearTimeout(spaced);
      for (const streams of [...byUser.values()]) {
        for (const stream of [...streams]) stream.end();
      }
    },
  };
}
