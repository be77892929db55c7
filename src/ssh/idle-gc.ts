// A session worker's heap, given back once its last session has left. V8 grows a heap for
// twenty sessions to a few hundred MB and, left alone, keeps it until it next runs out:
// after everyone leaves, nothing allocates, so that never comes. A memory-reducing full
// GC (what V8 does itself on a low-memory notification: collect, compact, release the
// empty pages) brings the worker back near its size before the first session, while it
// stays warm (its compiled code kept) for whoever connects next.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { forgetDrawnText } from "../ui/ink/remembered.ts";

/**
 * When, after the last session ends: once its teardown is done (Ink's last frame, polls
 * aborted), and again later for whatever was still in flight then.
 */
export const IDLE_GC_MS = [500, 5000];

/**
 * How long a worker without sessions is kept warm for the next one, before the pool
 * (pool.ts) replaces it with a fresh one: what the GCs above cannot give back goes then.
 */
export const IDLE_RETIRE_MS = 30_000;

export type Gc = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * V8's own gc(), reached without `--expose-gc` on the command line: the flag is turned on
 * only while one fresh context is made, so no other context gets a `gc` global.
 */
export function exposedGc(): Gc {
  setFlagsFromString("--expose-gc");
  try {
    return runInNewContext("gc") as Gc;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}

/**
 * Returns the callback for the host's `onIdle`: at each of IDLE_GC_MS, if `idle()` still
 * holds (nobody connected meanwhile), this thread's caches of drawn text are emptied
 * (what the sessions that left drew) and a memory-reducing full GC follows.
 */
export function giveBackWhenIdle(
  idle: () => boolean,
  { gc = exposedGc(), delays = IDLE_GC_MS }: { gc?: Gc; delays?: readonly number[] } = {},
): () => void {
  let timers: NodeJS.Timeout[] = [];
  return () => {
    for (const timer of timers) clearTimeout(timer);
    timers = delays.map((ms) => {
      const timer = setTimeout(() => {
        if (!idle()) return;
        forgetDrawnText();
        gc({ type: "major", execution: "sync", flavor: "last-resort" });
      }, ms);
      timer.unref();
      return timer;
    });
  };
}
