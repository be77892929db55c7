// The streams Ink gets for one SSH session. An SSH channel is a plain byte pipe: the
// person's own terminal (in raw mode, by their ssh client) is the only tty, and there is
// no line discipline on this side. So the output side does what a pty's `onlcr` would
// do (LF -> CR LF, which Ink's frames rely on), and both sides say they are a TTY, with
// the size the client asked for in its pty request and then in `window-change` requests.
import { Readable, Writable } from "node:stream";

/** What the client types: Ink reads it like a TTY's stdin (raw mode is the client's business). */
export class ChannelInput extends Readable {
  readonly isTTY = true;
  isRaw = false;

  override _read(): void {
    // Pushed from the channel's 'data' events; nothing to pull.
  }

  /** Raw mode lives on the client's side of the connection (ssh sets it there): nothing to do. */
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  /** Bytes from the channel. */
  feed(data: Buffer | string): void {
    if (!this.destroyed) this.push(data);
  }
}

/** LF -> CR LF, as a pty's output processing would; an existing CR LF stays as it is. */
export function toTerminalNewlines(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/**
 * What Ink draws: a TTY-like writable of a given size that translates newlines and hands
 * the bytes to `send`. After `close()` (the channel is gone) writes are dropped and the
 * stream reports itself ended, so Ink's teardown writes nothing.
 */
export class ChannelOutput extends Writable {
  readonly isTTY = true;
  columns: number;
  rows: number;
  bytesOut = 0;
  private pending = "";
  private scheduled = false;
  private send: ((data: string) => void) | undefined;
  private held = false;

  constructor(options: { columns: number; rows: number; send: (data: string) => void }) {
    super({ decodeStrings: false, defaultEncoding: "utf8" });
    this.columns = options.columns;
    this.rows = options.rows;
    this.send = options.send;
  }

  override _write(
    chunk: string | Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
    if (this.send && !this.held && text.length > 0) {
      // Ink writes a frame in pieces (synchronized-update markers, the frame, the cursor);
      // sent together they make one SSH packet instead of several.
      this.pending += toTerminalNewlines(text);
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => this.flush());
      }
    }
    callback();
  }

  /** Sends what is waiting now (it goes by itself at the end of the current task). */
  flush(): void {
    this.scheduled = false;
    const out = this.pending;
    this.pending = "";
    if (this.send && out.length > 0) {
      this.bytesOut += Buffer.byteLength(out);
      this.send(out);
    }
  }

  /** The client's window changed (its `window-change` request). */
  resize(columns: number, rows: number): void {
    if (columns === this.columns && rows === this.rows) return;
    this.columns = columns;
    this.rows = rows;
    this.emit("resize");
  }

  /**
   * The client stopped reading: frames are dropped from now on, not queued (each one is
   * drawn over the last, so only the newest matters), until `release`.
   */
  hold(): void {
    this.held = true;
    this.pending = "";
  }

  /**
   * The client reads again: the whole screen is drawn afresh, as after a resize (the
   * repaint in src/client/mount.tsx clears it and has Ink forget its last frame).
   */
  release(): void {
    if (!this.held) return;
    this.held = false;
    this.emit("resize");
  }

  /** The channel is gone: drop whatever comes later. */
  detach(): void {
    this.send = undefined;
    this.pending = "";
    this.removeAllListeners("resize");
    if (!this.destroyed) this.destroy();
  }

  getWindowSize(): [number, number] {
    return [this.columns, this.rows];
  }
}

/** Where Ink's stderr goes: nowhere. On a pty channel it would land on the screen mid-frame. */
export function sink(): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
}
