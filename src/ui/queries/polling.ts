// Polling stands in for events (the API has none). While the server fails, polls back
// off exponentially up to 30 s, and the first success brings the normal pace back.
import type { Query } from "@tanstack/react-query";

export const MAX_BACKOFF_MS = 30_000;

export function backoffDelay(baseMs: number, failures: number): number {
  return failures <= 0 ? baseMs : Math.min(MAX_BACKOFF_MS, baseMs * 2 ** failures);
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
