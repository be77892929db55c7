// Failed sign-ins per address, to slow down whoever keeps failing: the first few are
// answered at once (a person's ssh offers each of their keys in turn), then each answer
// waits twice as long as the last, up to MAX_DELAY_MS. An address is forgotten after
// FORGET_MS without a failure; at most MAX_ADDRESSES are remembered (the oldest go).

const FREE_FAILURES = 5;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 10_000;
const FORGET_MS = 10 * 60_000;
const MAX_ADDRESSES = 10_000;

export type FailureTracker = {
  /** Counts a failure from `address`; resolves when its answer may be given. */
  failed(address: string): Promise<void>;
  /** How long the next answer to `address` would wait (tests, logs). */
  delayFor(address: string): number;
};

export function failureTracker(now = () => Date.now()): FailureTracker {
  // A Map keeps insertion order: re-inserting on each failure keeps the oldest first.
  const seen = new Map<string, { count: number; last: number }>();
  const current = (address: string) => {
    const entry = seen.get(address);
    if (entry && now() - entry.last > FORGET_MS) {
      seen.delete(address);
      return undefined;
    }
    return entry;
  };
  const delayOf = (count: number) =>
    count <= FREE_FAILURES
      ? 0
      : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (count - FREE_FAILURES - 1));
  return {
    failed(address) {
      const count = (current(address)?.count ?? 0) + 1;
      seen.delete(address);
      seen.set(address, { count, last: now() });
      if (seen.size > MAX_ADDRESSES) seen.delete(seen.keys().next().value!);
      const delay = delayOf(count);
      return delay === 0 ? Promise.resolve() : new Promise((r) => setTimeout(r, delay).unref());
    },
    delayFor: (address) => delayOf((current(address)?.count ?? 0) + 1),
  };
}
