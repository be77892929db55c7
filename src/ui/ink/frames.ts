// Between parley's log-update (log-update.ts) and the start-up code, without loading Ink:
// the frames written to a stream, and a frame already on its screen before Ink loaded
// (src/client/start-screen.ts draws the one kept from the last run).
const watchers = new WeakMap<NodeJS.WriteStream, (frame: string) => void>();
const shown = new WeakMap<NodeJS.WriteStream, { frame: string; columns: number; rows: number }>();

/** Calls `watcher` with every frame written to `stream` from now on; returns the stop. */
export function watchFrames(
  stream: NodeJS.WriteStream,
  watcher: (frame: string) => void,
): () => void {
  watchers.set(stream, watcher);
  return () => {
    if (watchers.get(stream) === watcher) watchers.delete(stream);
  };
}

export function frameWritten(stream: NodeJS.WriteStream, frame: string): void {
  watchers.get(stream)?.(frame);
}

/**
 * Says that `stream` already shows `frame`, from its top left, with the cursor there: the
 * log-update created next for it writes only what differs from it.
 */
export function frameAlreadyShown(stream: NodeJS.WriteStream, frame: string): void {
  shown.set(stream, { frame, columns: stream.columns, rows: stream.rows });
}

/**
 * The frame on `stream`'s screen, for the log-update being created for it (once). If the
 * terminal was resized since, the terminal has moved it about: the screen is cleared and
 * the log-update starts from nothing.
 */
export function takeShownFrame(stream: NodeJS.WriteStream): string | undefined {
  const taken = shown.get(stream);
  shown.delete(stream);
  if (!taken) return undefined;
  if (taken.columns === stream.columns && taken.rows === stream.rows) return taken.frame;
  stream.write("\x1b[H\x1b[2J");
  return undefined;
}
