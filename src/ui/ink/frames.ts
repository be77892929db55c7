// Between parley's log-update (log-update.ts) and the start-up code, without loading Ink:
// the frames written to a stream, and a frame already on its screen before Ink loaded
// (src/client/start-screen.ts draws the one kept from the last run).
const watchers = new WeakMap<NodeJS.WriteStream, (frame: string) => void>();
const shown = new WeakMap<NodeJS.WriteStream, string>();

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
  shown.set(stream, frame);
}

/** The frame on `stream`'s screen, for the log-update being created for it (once). */
export function takeShownFrame(stream: NodeJS.WriteStream): string | undefined {
  const frame = shown.get(stream);
  shown.delete(stream);
  return frame;
}
