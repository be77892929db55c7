// A revoked or rotated token's event streams end within a second, whoever changed it: this
// process, another instance on PostgreSQL, or `parley users` in a process of its own. Twice
// a second, when the database changed since the last look (any process's write moves the
// store's version) and streams are open, the hub checks their tokens against the store (one
// query for all of them), rather than only with each keep-alive.
import type { EventHub } from "./events/hub.ts";

export const REVALIDATE_EVERY_MS = 500;

/** Starts the checks; the function returned stops them. */
export function revalidateStreams(
  hub: Pick<EventHub, "revalidate" | "streams">,
  version: () => string,
  log: (line: string, error?: unknown) => void,
  everyMs = REVALIDATE_EVERY_MS,
): () => void {
  let running = false;
  let checked = version();
  const timer = setInterval(() => {
    if (running || hub.streams() === 0) return;
    const now = version();
    if (now === checked) return;
    checked = now;
    running = true;
    hub
      .revalidate()
      .catch((error: unknown) =>
        log(`events: checking tokens failed: ${(error as Error).message}`, error),
      )
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
