// One open /v1/events response, written straight to the node socket so its back-pressure
// is visible: what the kernel will not take waits in the response's own buffer, and a
// client that lets more than `maxQueuedBytes` pile up there has stopped reading and is cut
// off rather than buffered for.
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
  /** While the stream replays from Last-Event-ID, live events wait here. */
  private held: { id: number; text: string }[] | undefined;
  private heldBytes = 0;
  closed = false;

  readonly userId: string;
  readonly token: string;
  private readonly response: ServerResponse;
  private readonly maxQueuedBytes: number;

  constructor(
    user: { id: string; token: string },
    response: ServerResponse,
    maxQueuedBytes: number,
    onClose: () => void,
  ) {
    this.userId = user.id;
    this.token = user.token;
    this.response = response;
    this.maxQueuedBytes = maxQueuedBytes;
    response.once("close", () => {
      this.closed = true;
      this.held = undefined;
      onClose();
    });
  }

  /** Writes; false (and the stream ends) when the client is too far behind. */
  write(text: string): boolean {
    if (this.closed) return false;
    this.response.write(text);
    if (this.response.writableLength > this.maxQueuedBytes) {
      this.end();
      return false;
    }
    return true;
  }

  /** A live event from the reader: sent now, or held while the replay runs. */
  deliver(id: number, type: StreamEventType, data: string): void {
    if (id <= this.cursor || this.closed) return;
    const text = frame(id, type, data);
    if (this.held) {
      this.heldBytes += text.length;
      if (this.heldBytes > this.maxQueuedBytes) this.end();
      else this.held.push({ id, text });
      return;
    }
    this.cursor = id;
    this.write(text);
  }

  /** A replayed event: it goes out now, in order. */
  replay(id: number, type: StreamEventType, data: string): boolean {
    if (id <= this.cursor) return !this.closed;
    this.cursor = id;
    return this.write(frame(id, type, data));
  }

  /** `reset`: what the client shows is to be fetched again; live events go on after `id`. */
  reset(id: number): void {
    this.cursor = Math.max(this.cursor, id);
    this.write(frame(this.cursor, "reset", "{}"));
  }

  holdLive(): void {
    this.held = [];
  }

  /** The replay is done: what the reader delivered meanwhile follows it. */
  releaseLive(): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.heldBytes = 0;
    for (const event of held) {
      if (event.id <= this.cursor) continue;
      this.cursor = event.id;
      if (!this.write(event.text)) return;
    }
  }

  /** Resolves once the client has taken what was written (or the stream closed). */
  drained(): Promise<void> {
    if (this.closed || !this.response.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.response.off("drain", done);
        this.response.off("close", done);
        resolve();
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
