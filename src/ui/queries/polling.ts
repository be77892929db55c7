// Polling stands in for events (the API has none). While the server fails, polls back
// off exponentially up to 30 s, and the first success brings the normal pace back.
import type { Query } from "@tanstack/react-query";

export const MAX_BACKOFF_MS = 30_000;
/**
 * Each wait is drawn from base ±15%. Clients that start together (the sessions of
 * `parley ssh`, a room that opens the demo at once, everyone after a server restart)
 * would otherwise poll in step for good: every 2 s, all their requests and renders at
 * the same instant, and any key typed then waits behind all of them.
 */
export const POLL_JITTER = 0.3;

export function backoffDelay(baseMs: number, failures: number, random = Math.random): number {
  const delay = failures <= 0 ? baseMs : Math.min(MAX_BACKOFF_MS, baseMs * 2 ** failures);
  return Math.round(delay * (1 - POLL_JITTER / 2 + random() * POLL_JITTER));
}

// TanStack counts errors over a query's life; the backoff wants the failures since the
// last success, so remember the count at each success.
const errorsAtLastSuccess = new WeakMap<object, number>();

// biome-ignore lint/suspicious/noExplicitAny: any query shape polls the same way
export function consecutiveFailures(query: Query<any, any, any, any>): number {
  const { status, errorUpdateCount } = query.state;
  if (status !== "error") {
    errorsAtLastSuccess.set(query, errorUpdateCount);
    return 0;
  }
  return errorUpdateCount - (errorsAtLastSuccess.get(query) ?? 0);
}

// biome-ignore lint/suspicious/noExplicitAny: any query shape polls the same way
export function pollInterval(baseMs: number): (query: Query<any, any, any, any>) => number {
  return (query) => backoffDelay(baseMs, consecutiveFailures(query));
}
