// A /v1/events stream as a test reads it: fetch, and eventsource-parser for the wire.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { vi } from "vitest";

export type Sse = {
  status: number;
  headers: Headers;
  /** Every event so far, in the order they came. */
  events: EventSourceMessage[];
  comments: string[];
  /** Set when the server ended the stream. */
  ended: boolean;
  /** The first event (from the `from`-th on) that `match` accepts, waiting for it to come. */
  next(match: (event: EventSourceMessage) => boolean, from?: number): Promise<EventSourceMessage>;
  close(): void;
};

export async function openEvents(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Sse> {
  const abort = new AbortController();
  const response = await fetch(`${url}/v1/events`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  const sse: Sse = {
    status: response.status,
    headers: response.headers,
    events: [],
    comments: [],
    ended: false,
    next: (match, from = 0) =>
      vi.waitFor(
        () => {
          const found = sse.events.slice(from).find(match);
          if (!found) throw new Error(`no such event yet among ${sse.events.length}`);
          return found;
        },
        { timeout: 10_000, interval: 10 },
      ),
    close: () => abort.abort(),
  };
  if (!response.body || response.status !== 200) {
    await response.body?.cancel();
    sse.ended = true;
    return sse;
  }
  const parser = createParser({
    onEvent: (event) => sse.events.push(event),
    onComment: (comment) => sse.comments.push(comment),
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {}
    sse.ended = true;
  })();
  return sse;
}

/** The events of `type`, parsed. */
// biome-ignore lint/suspicious/noExplicitAny: the assertions check the shapes
export const dataOf = (event: EventSourceMessage): any => JSON.parse(event.data);
