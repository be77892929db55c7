// The client's heap, given back once a busy spell is over. V8 grows its heap with the
// garbage of a burst of news or of a long history scrolled through, and keeps it: 255 MB
// resident with 10,000 messages loaded, of which 29 MB live. Run with --optimize-for-size
// it stays small, but collects all the time: through a burst of 1,000 messages that was
// twice the CPU, and keys waited behind its collections (npm run bench, "A burst of news").
// So V8 runs as it is made to while the client works, and once the client has been quiet
// for a few seconds after its heap grew, one full collection gives the garbage's room
// back (some 50 to 150 ms, with the heap of a long history, while nothing is happening).
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** How often the heap and the last while's work are looked at. */
const CHECK_MS = 2000;
/** The share of a check's while the event loop may have been busy: quiet below it. */
const QUIET = 0.02;
/** Checks in a row that must have been quiet: someone reading, not typing or scrolling. */
const QUIET_CHECKS = 2;
/**
 * How much the old generation must have grown since the client started, or since the
 * last collection here left it, to be collected (the client's live heap is 20 to 30 MB).
 */
const GROWN_BYTES = 24 * 1024 * 1024;

/**
 * The old generation's size, in bytes: the heap without its young generation, whose room
 * (up to a few tens of MB) is emptied at every scavenge and grows back as soon as anything
 * is allocated. Counted, it made an idle client collect again and again (100 ms of CPU a
 * minute, against 45 without). What of it is garbage is known only after a collection,
 * so growth is what is looked at.
 */
function oldGeneration(): number {
  let size = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (!space.space_name.startsWith("new_")) size += space.space_size;
  }
  return size;
}

type Collect = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * Starts looking; the timer never keeps the process alive. `onTrim` hears of each
 * collection: the old generation's size before and after, in bytes.
 */
export function trimHeapWhenQuiet(onTrim?: (before: number, after: number) => void): void {
  // Only a new context has the `gc` function; this one's globals stay as they were.
  setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as Collect;
  let last = performance.eventLoopUtilization();
  let quiet = 0;
  // The old generation as it was at the start, then as the last collection left it: one
  // that stays large (live data) is not collected again until it grows again.
  let trimmedTo = oldGeneration();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    quiet = busy < QUIET ? quiet + 1 : 0;
    if (quiet < QUIET_CHECKS) return;
    const size = oldGeneration();
    if (size < trimmedTo + GROWN_BYTES) return;
    // "last-resort": collections until nothing more is freed, that also give the emptied
    // pages back to the system (a plain full collection keeps them for the heap).
    collect({ type: "major", execution: "sync", flavor: "last-resort" });
    trimmedTo = oldGeneration();
    onTrim?.(size, trimmedTo);
    quiet = 0;
    last = performance.eventLoopUtilization();
  }, CHECK_MS);
  timer.unref();
}
