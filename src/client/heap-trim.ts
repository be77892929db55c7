// The client's heap, given back once a busy spell is over. V8 grows its heap with the
// garbage of a burst of news or of a long history scrolled through, and keeps it: 255 MB
// resident with 10,000 messages loaded, of which 29 MB live. Run with --optimize-for-size
// it stays small, but collects all the time: through a burst of 1,000 messages that was
// twice the CPU, and keys waited behind its collections (npm run bench, "A burst of news").
// So V8 runs as it is made to while the client works, and once the client has been quiet
// for a few seconds with a heap mostly empty, one full collection gives the rest back
// (some 50 to 150 ms, with the heap of a long history, while nothing is happening).
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** How often the heap and the last while's work are looked at. */
const CHECK_MS = 2000;
/** The share of a check's while the event loop may have been busy: quiet below it. */
const QUIET = 0.02;
/** Checks in a row that must have been quiet: someone reading, not typing or scrolling. */
const QUIET_CHECKS = 2;
/** What a collection must be able to give back (the client's live heap is 20 to 30 MB). */
const SLACK_BYTES = 24 * 1024 * 1024;

type Collect = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * Starts looking; the timer never keeps the process alive. `onTrim` hears of each
 * collection: the heap's size before and after, in bytes.
 */
export function trimHeapWhenQuiet(onTrim?: (before: number, after: number) => void): void {
  // Only a new context has the `gc` function; this one's globals stay as they were.
  setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as Collect;
  let last = performance.eventLoopUtilization();
  let quiet = 0;
  // The heap as the last collection left it: the next needs it grown by SLACK_BYTES since,
  // so a heap that stays large (fragmented, or live) is never collected again and again.
  let trimmedTo = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    quiet = busy < QUIET ? quiet + 1 : 0;
    if (quiet < QUIET_CHECKS) return;
    const { total_heap_size: total, used_heap_size: used } = getHeapStatistics();
    if (total - used < SLACK_BYTES || total < trimmedTo + SLACK_BYTES) return;
    // "last-resort": collections until nothing more is freed, that also give the emptied
    // pages back to the system (a plain full collection keeps them for the heap).
    collect({ type: "major", execution: "sync", flavor: "last-resort" });
    trimmedTo = getHeapStatistics().total_heap_size;
    onTrim?.(total, trimmedTo);
    quiet = 0;
    last = performance.eventLoopUtilization();
  }, CHECK_MS);
  timer.unref();
}
