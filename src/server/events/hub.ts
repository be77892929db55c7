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
import { EventStream, KEEP_ALIVE } from "./stream.ts";

export type EventOptions = {
  /** How often each stream gets `: keep-alive` and its token is checked again; default 20 s. */
  keepAliveMs?: number;
  /** Bytes a stream may have waiting for a slow client before it is cut; default 256 KiB. */
  maxQueuedBytes?: number;
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
  /** Streams held by this instance. */
  streams(): number;
  close(): void;
};

const BATCH = 500;
const PRUNE_EVERY_MS = 60_000;
const RETRY_MS = 1000;
/** A Last-Event-ID this server hands out: a decimal event id. */
const CURSOR = /^\d{1,15}$/;

export function createEventHub(
  store: Store,
  /** Told who holds a stream, when the demo users answer (they do not for who is signed in). */
  presence: Presence | undefined,
  log: (line: string) => void,
  options: EventOptions = {},
  /** Tokens this process gave `parley ssh` sessions (never stored) -> user id. */
  localTokens: ReadonlyMap<string, string> = new Map(),
): EventHub {
  const keepAliveMs = options.keepAliveMs ?? 20_000;
  const maxQueuedBytes = options.maxQueuedBytes ?? 256 * 1024;
  const perUser = options.perUser ?? 16;
  const retention = options.retention ?? { seconds: EVENTS_KEPT_SECONDS, count: EVENTS_KEPT_COUNT };
  const byUser = new Map<string, Set<EventStream>>();
  let count = 0;
  let readThrough = 0;
  let reading = false;
  let readAgain = false;
  let closed = false;
  let keepAlive: NodeJS.Timeout | undefined;
  let pruning: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  const render = createRenderer(store);

  async function deliver(event: StoredEvent): Promise<void> {
    for (const userId of event.recipients) {
      if (!byUser.has(userId)) continue;
      const data = await render(event, userId);
      if (data === undefined) continue;
      // Looked up again: the user's streams may have come or gone meanwhile.
      for (const stream of byUser.get(userId) ?? []) stream.deliver(event.id, event.type, data);
    }
  }

  /** Reads what was appended since the last read; a wake during a read reads again after. */
  async function read(): Promise<void> {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        for (;;) {
          const batch = await store.events.after(readThrough, BATCH);
          for (const event of batch) {
            // After it is delivered: a failed read starts again with it (streams skip
            // what they have).
            if (count > 0) await deliver(event);
            readThrough = event.id;
          }
          if (batch.length < BATCH || closed) break;
        }
      } while (readAgain && !closed);
    } catch (error) {
      if (closed) return;
      log(`events: reading failed, trying again: ${(error as Error).message}`);
      retry ??= setTimeout(() => {
        retry = undefined;
        void read();
      }, RETRY_MS);
    } finally {
      reading = false;
    }
  }

  function remove(stream: EventStream): void {
    const streams = byUser.get(stream.userId);
    if (!streams?.delete(stream)) return;
    count--;
    if (streams.size === 0) byUser.delete(stream.userId);
  }

  /** Sends what came after `lastEventId`, or `reset` when that is no longer held. */
  async function replay(stream: EventStream, lastEventId: string): Promise<void> {
    const { newest, pruned } = await store.events.bounds();
    const after = CURSOR.test(lastEventId) ? Number(lastEventId) : -1;
    if (after < pruned || after > newest) {
      stream.reset(newest);
      return;
    }
    stream.cursor = after;
    const renderOwn = createRenderer(store);
    for (;;) {
      const batch = await store.events.after(stream.cursor, BATCH, stream.userId);
      for (const event of batch) {
        const data = await renderOwn(event, stream.userId);
        if (data === undefined) {
          stream.cursor = Math.max(stream.cursor, event.id);
          continue;
        }
        if (!stream.replay(event.id, event.type, data)) return;
      }
      if (batch.length < BATCH) return;
      await stream.drained();
      if (stream.closed) return;
    }
  }

  async function revalidate(): Promise<void> {
    const all = [...byUser.values()].flatMap((streams) => [...streams]);
    if (all.length === 0) return;
    // Each stored token hashed once (many streams of one client share a token).
    const hashes = new Map<string, string>();
    for (const { token } of all) {
      if (!localTokens.has(token) && !hashes.has(token)) hashes.set(token, hashToken(token));
    }
    const owners = await store.events.tokenOwners([...hashes.values()]);
    const present = new Set<string>();
    for (const stream of all) {
      const hash = hashes.get(stream.token);
      const owner = localTokens.get(stream.token) ?? (hash && owners.get(hash));
      if (owner === stream.userId) present.add(stream.userId);
      else stream.end();
    }
    // Holding a stream is being signed in (the demo users do not answer for them).
    if (presence) for (const userId of present) await presence.seen(userId);
  }

  function tick(): void {
    for (const streams of byUser.values()) {
      for (const stream of streams) stream.write(KEEP_ALIVE);
    }
    revalidate().catch((error: unknown) => {
      if (!closed) log(`events: checking tokens failed: ${(error as Error).message}`);
    });
  }

  return {
    async start() {
      readThrough = (await store.events.bounds()).newest;
      store.events.onAppended(() => {
        if (!closed) void read();
      });
      keepAlive = setInterval(tick, keepAliveMs);
      keepAlive.unref();
      const prune = () =>
        store.events.prune(retention.seconds, retention.count).catch((error: unknown) => {
          if (!closed) log(`events: pruning failed: ${(error as Error).message}`);
        });
      void prune();
      pruning = setInterval(prune, retention.pruneEveryMs ?? PRUNE_EVERY_MS);
      pruning.unref();
    },

    async open(user, response, lastEventId) {
      const stream = new EventStream(user, response, maxQueuedBytes, () => remove(stream));
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
      // From here the reader delivers to it; what it already read is for the replay.
      stream.cursor = readThrough;
      if (lastEventId === undefined) return;
      stream.holdLive();
      try {
        await replay(stream, lastEventId);
        stream.releaseLive();
      } catch (error) {
        log(`events: replay failed: ${(error as Error).message}`);
        stream.end();
      }
    },

    revalidate,
    streams: () => count,

    close() {
      closed = true;
      clearInterval(keepAlive);
      clearInterval(pruning);
      clearTimeout(retry);
      for (const streams of [...byUser.values()]) {
        for (const stream of [...streams]) stream.end();
      }
    },
  };
}
