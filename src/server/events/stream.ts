// One open /v1/events response, written straight to the node socket so its back-pressure
// is visible. A stream is either live (the hub's reader writes each event as it comes) or
// behind (the hub catches it up from the events table, hub.ts): it falls behind when more
// than `maxQueuedBytes` wait in its buffer, so one stream never holds more than about that
// much, however fast events come. Only a client that takes nothing for `stallMs` while
// bytes wait has stopped reading, and is cut; one that reads slowly just stays behind.
import type { ServerResponse } from "node:http";
import type { EventType } from "../store/store.ts";

export type StreamEventType = EventType | "reset";

export function frame(id: number, type: StreamEventType, data: string): string {
  return `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;
}

export const KEEP_ALIVE = ": keep-alive\n\n";

export class EventStream {
  /** The id of the newest event this stream has sent (or will not need). */
  cursor = 0;
  /** Live events are not written: the hub reads them from the store (catch-up). */
  behind = false;
  closed = false;

  readonly userId: string;
  readonly token: string;
  private readonly response: ServerResponse;
  private readonly maxQueuedBytes: number;
  private readonly stallMs: number;
  private readonly onBehind: (stream: EventStream) => void;

  constructor(
    user: { id: string; token: string },
    response: ServerResponse,
    limits: { maxQueuedBytes: number; stallMs: number },
    on: { close: () => void; behind: (stream: EventStream) => void },
  ) {
    this.userId = user.id;
    this.token = user.token;
    this.response = response;
    this.maxQueuedBytes = limits.maxQueuedBytes;
    this.stallMs = limits.stallMs;
    this.onBehind = on.behind;
    response.once("close", () => {
      this.closed = true;
      on.close();
    });
  }

  /** Writes a keep-alive comment (not an event: a stream that is behind gets it too). */
  keepAlive(): void {
    if (!this.closed) this.response.write(KEEP_ALIVE);
  }

  /** A live event from the reader: written now, unless the stream is behind. */
  deliver(id: number, type: StreamEventType, data: string): void {
    if (id <= this.cursor || this.closed || this.behind) return;
    this.send(id, type, data);
    if (this.response.writableLength > this.maxQueuedBytes) {
      this.behind = true;
      this.onBehind(this);
    }
  }

  /** An event read for this stream while it catches up; false once it should wait (drained). */
  send(id: number, type: StreamEventType, data: string): boolean {
    if (this.closed) return false;
    if (id <= this.cursor) return true;
    this.cursor = id;
    this.response.write(frame(id, type, data));
    return !this.response.writableNeedDrain;
  }

  /** `reset`: what the client shows is to be fetched again; events go on after `id`. */
  reset(id: number): void {
    this.cursor = Math.max(this.cursor, id);
    if (!this.closed) this.response.write(frame(this.cursor, "reset", "{}"));
  }

  /**
   * Resolves true once the client has taken what was written, false when the stream closed,
   * or was cut because the client took nothing in `stallMs` (a slow reader that takes
   * something in each period is waited for).
   */
  drained(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (!this.response.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      let waiting = this.response.writableLength;
      const check = setInterval(() => {
        const now = this.response.writableLength;
        if (now >= waiting) this.end();
        waiting = now;
      }, this.stallMs);
      const done = () => {
        clearInterval(check);
        this.response.off("drain", done);
        this.response.off("close", done);
        resolve(!this.closed);
      };
      this.response.on("drain", done);
      this.response.on("close", done);
    });
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    // destroy, not end: a client that stopped reading would hold an ending socket open.
    this.response.destroy();
  }
}
