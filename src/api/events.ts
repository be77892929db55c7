// The server's event stream (contract.md "Events"): `GET /v1/events` as Server-Sent Events,
// read with eventsource-parser, each event's data checked with the shared zod schemas.
//
// ofetch makes the request (`responseType: "stream"`), with the same Authorization as every
// other call; but not through http.ts's ofetch: that one reads the whole body inside its
// timeout and retries, and this body never ends. Here the timeout covers the answer's head
// only; after it, silence longer than `idleMs` (the server says something at least every
// 25 s) counts as a dropped stream. `followEvents` keeps one stream open: reopened with
// Last-Event-ID after the client's one back-off (retry.ts) when it drops, given up for the
// session when the server has no stream.
import { createParser } from "eventsource-parser";
import { z } from "../zod.ts";
import { networkError } from "./errors.ts";
import { httpFetch } from "./http.ts";
import { backoffDelay } from "./retry.ts";
import { Conversation, Id, type Message, parseMessage, Timestamp } from "./schema.ts";

const Removed = z.object({ id: Id, conversation_id: Id });
export type Removed = z.output<typeof Removed>;

/** Every message of the conversation not sent by `reader` that was unread is read since `read_at`. */
const ReadMark = z
  .object({ conversation_id: Id, reader: z.string().min(1).max(200), read_at: Timestamp })
  .refine((read) => read.read_at !== null);
export type ReadMark = z.output<typeof ReadMark>;

export type ServerEvent =
  | { type: "message.created" | "message.updated"; message: Message }
  | { type: "message.deleted"; removed: Removed }
  | { type: "conversation.created" | "conversation.updated"; conversation: Conversation }
  | { type: "conversation.deleted"; removed: Removed }
  | { type: "messages.read"; read: ReadMark }
  /** The server no longer has what came after our cursor: refetch what is shown. */
  | { type: "reset" };

/** The stream's state: "live" while one is open, "down" between two, "none" for good. */
export type EventsState = "connecting" | "live" | "down" | "none";

export type EventsOptions = {
  baseUrl: string;
  token: string;
  /** For the answer's head. */
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
  /** Silence after which the stream is taken for dropped; default 60 s. */
  idleMs?: number;
  /** The most a single event (or line) may take; default 1 MiB. */
  maxEventBytes?: number;
  /** The back-off between reopenings: base and ceiling; default 1 s and 30 s. */
  backoff?: { baseMs: number; maxMs: number };
};

export type EventsApi = {
  /**
   * Opens the stream and keeps it open until `stop` is called: `onState` hears every change
   * of state, `onEvent` every event that fits the contract (others are left out).
   */
  follow(handlers: {
    onState: (state: EventsState) => void;
    onEvent: (event: ServerEvent) => void;
  }): { stop: () => void };
};

/** Why one stream ended: the server has none, or it was open (or tried) and is gone. */
type Ending = { kind: "none" } | { kind: "dropped"; opened: boolean; error?: unknown };

const NO_STREAM = new Set([404, 405, 406, 501]);
const MAX_CURSOR = 256;
/** Resumes from one cursor that end with nothing sent, before it is given up. */
const STUCK_RESUMES = 3;
/** How long a stream must have been open for its end to start the back-off afresh. */
const HELD_MS = 60_000;

export function eventsApi(options: EventsOptions): EventsApi {
  return {
    follow({ onState, onEvent }) {
      const stopper = new AbortController();
      const { baseMs, maxMs } = options.backoff ?? { baseMs: 1000, maxMs: 30_000 };
      let cursor: string | undefined;
      void (async () => {
        let failures = 0;
        let openedAt = 0;
        /** Streams in a row that opened on `cursor` and ended without moving it. */
        let stuck = 0;
        onState("connecting");
        while (!stopper.signal.aborted) {
          const from = cursor;
          const ending = await openOnce(options, stopper.signal, cursor, {
            onOpen: () => {
              openedAt = Date.now();
              onState("live");
            },
            onEvent: (id, event) => {
              if (id !== undefined && id.length <= MAX_CURSOR) cursor = id;
              if (event) onEvent(event);
            },
          });
          if (stopper.signal.aborted) return;
          if (ending.kind === "none") {
            onState("none");
            return;
          }
          onState("down");
          // A server that cuts every resume from one cursor before sending anything would
          // be asked for it for ever: after a few, the stream starts afresh (no cursor) and
          // what is shown is fetched again, as for a reset.
          stuck = ending.kind === "dropped" && ending.opened && cursor === from ? stuck + 1 : 0;
          if (stuck >= STUCK_RESUMES && cursor !== undefined) {
            cursor = undefined;
            stuck = 0;
            onEvent({ type: "reset" });
          }
          // Only a stream that held counts as a success: one the server keeps ending at once
          // (a cap on streams per user, which parley ssh's sessions of one user can reach)
          // is tried ever more rarely, and polls in between.
          if (ending.kind === "dropped" && ending.opened && Date.now() - openedAt >= HELD_MS) {
            failures = 0;
          }
          await sleep(backoffDelay(baseMs, failures++, maxMs), stopper.signal);
        }
      })();
      return { stop: () => stopper.abort() };
    },
  };
}

/** One stream, from the request to its end. */
async function openOnce(
  options: EventsOptions,
  stopped: AbortSignal,
  lastEventId: string | undefined,
  on: { onOpen: () => void; onEvent: (id: string | undefined, event?: ServerEvent) => void },
): Promise<Ending> {
  const { ofetch } = await import("ofetch");
  const abort = new AbortController();
  const stop = () => abort.abort();
  stopped.addEventListener("abort", stop, { once: true });
  let watchdog = setTimeout(stop, options.timeoutMs);
  const quiet = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(stop, options.idleMs ?? 60_000);
    watchdog.unref?.();
  };
  watchdog.unref?.();
  let opened = false;
  try {
    const $fetch = ofetch.create({}, { fetch: options.fetch ?? httpFetch });
    const response = await $fetch.raw(`${options.baseUrl}/v1/events`, {
      headers: {
        authorization: `Bearer ${options.token}`,
        accept: "text/event-stream",
        ...(lastEventId !== undefined && { "last-event-id": lastEventId }),
      },
      responseType: "stream",
      signal: abort.signal,
      retry: 0,
      ignoreResponseError: true,
    });
    const body = response._data as ReadableStream<Uint8Array> | undefined;
    const { status } = response;
    const isStream = /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "");
    if (status !== 200 || !isStream || !body) {
      await body?.cancel().catch(() => {});
      // Any other failure (401, 5xx, a gateway's page) may pass: tried again after the back-off.
      const none = NO_STREAM.has(status) || (status >= 200 && status < 300 && !isStream);
      return none ? { kind: "none" } : { kind: "dropped", opened };
    }
    opened = true;
    quiet();
    on.onOpen();
    await read(body, options.maxEventBytes ?? 1024 * 1024, quiet, on.onEvent);
    return { kind: "dropped", opened };
  } catch (error) {
    return { kind: "dropped", opened, error: networkError(options.baseUrl, error) };
  } finally {
    clearTimeout(watchdog);
    stopped.removeEventListener("abort", stop);
    abort.abort();
  }
}

/**
 * Reads the stream to its end. More than `max` bytes since the last blank line (which ends
 * an event, or a comment) ends it: the parser keeps an event's data lines until that line,
 * so a server that never sends one, or slips comments between endless data lines, would
 * otherwise grow it without bound.
 */
async function read(
  body: ReadableStream<Uint8Array>,
  max: number,
  heard: () => void,
  onEvent: (id: string | undefined, event?: ServerEvent) => void,
): Promise<void> {
  let pending = 0;
  let tail = "";
  const parser = createParser({
    onEvent: (message) => onEvent(message.id, toEvent(message.event ?? "message", message.data)),
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      heard();
      const seen = tail + value;
      const ended = lastBlankLineEnd(seen);
      pending = ended === -1 ? pending + value.length : seen.length - ended;
      tail = seen.slice(-3);
      if (pending > max) throw new Error(`an event of more than ${max} bytes`);
      parser.feed(value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Where the last blank line in `text` ends (any of the three line ends), or -1. */
function lastBlankLineEnd(text: string): number {
  let end = -1;
  // A line ends with CRLF, LF or CR: an empty line follows a line end at once.
  for (const blank of ["\n\n", "\r\r", "\n\r"]) {
    const at = text.lastIndexOf(blank);
    if (at !== -1) end = Math.max(end, at + blank.length);
  }
  return end;
}

/** An event as the contract has it, or undefined (an unknown type, data that does not fit). */
export function toEvent(type: string, data: string): ServerEvent | undefined {
  if (type === "reset") return { type };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  switch (type) {
    case "message.created":
    case "message.updated": {
      const message = parseMessage(json);
      return message ? { type, message } : undefined;
    }
    case "conversation.created":
    case "conversation.updated": {
      const parsed = Conversation.safeParse(json);
      return parsed.success ? { type, conversation: parsed.data } : undefined;
    }
    case "message.deleted":
    case "conversation.deleted": {
      const parsed = Removed.safeParse(json);
      return parsed.success ? { type, removed: parsed.data } : undefined;
    }
    case "messages.read": {
      const parsed = ReadMark.safeParse(json);
      return parsed.success ? { type, read: parsed.data } : undefined;
    }
    default:
      return undefined;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
