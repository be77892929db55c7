// Events gathered into batches of a frame: the first event after a quiet frame is applied
// at the next turn of the event loop (with whatever else that read of the stream brought),
// and those that follow within the frame wait for its end. A burst of hundreds of events a
// second is then a cache write and a render per frame, and keys are answered between.
export const FRAME_MS = 32;
/**
 * While a burst lasts (the last batch held more than BUSY events), batches come at most
 * this often: the screen moves five times a second, faster than anyone reads a burst, and
 * each of its renders (the whole chat screen: the list and the pane both change) is paid
 * a sixth as often as at the frame's pace. Keys are answered as they come, whatever the
 * batches do.
 */
export const BUSY_FRAME_MS = 200;
const BUSY = 20;
/**
 * More events than this waiting at once (a server flooding faster than they can be
 * applied) are dropped for a refetch of what is shown, which costs the same whatever the
 * flood held.
 */
export const MAX_WAITING = 5000;

export function eventBatches<E>(
  apply: (events: E[]) => void,
  overflow: () => void,
  frameMs = FRAME_MS,
): { push(event: E): void; stop(): void } {
  let waiting: E[] = [];
  let overflowed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hop: ReturnType<typeof setTimeout> | undefined;
  let lastApplied = Number.NEGATIVE_INFINITY;
  let gap = frameMs;
  const flush = () => {
    hop = undefined;
    lastApplied = Date.now();
    gap = waiting.length > BUSY ? Math.max(frameMs, BUSY_FRAME_MS) : frameMs;
    const events = waiting;
    waiting = [];
    if (overflowed) {
      overflowed = false;
      overflow();
    } else apply(events);
  };
  return {
    push(event) {
      if (!overflowed) waiting.push(event);
      if (waiting.length > MAX_WAITING) {
        overflowed = true;
        waiting = [];
      }
      if (timer || hop) return;
      // The batch's time come, it waits one more turn of the event loop, whose input is
      // read after its timers: a key typed meanwhile is answered before the batch (and its
      // render) that fell due at the same moment.
      timer = setTimeout(
        () => {
          timer = undefined;
          hop = setTimeout(flush, 0);
        },
        Math.max(0, lastApplied + gap - Date.now()),
      );
    },
    stop() {
      clearTimeout(timer);
      clearTimeout(hop);
      timer = undefined;
      hop = undefined;
      waiting = [];
    },
  };
}
