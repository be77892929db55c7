// A token bucket per access token: `perSecond` sustained, bursts up to `burst`.
export type RateLimit = { perSecond: number; burst: number };

export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 100, burst: 300 };

const MAX_BUCKETS = 10_000;

export function createRateLimiter(limit: RateLimit, clockMs: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number }>();

  function refill(bucket: { tokens: number; at: number }, now: number): void {
    bucket.tokens = Math.min(
      limit.burst,
      bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond,
    );
    bucket.at = now;
  }

  return {
    /** Takes one request from `key`'s bucket: 0 when allowed, else seconds to wait. */
    take(key: string): number {
      const now = clockMs();
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= MAX_BUCKETS) forgetFull(now);
        bucket = { tokens: limit.burst, at: now };
        buckets.set(key, bucket);
      } else {
        refill(bucket, now);
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
    },
  };

  /** Buckets that have refilled completely hold no information. */
  function forgetFull(now: number): void {
    for (const [key, bucket] of buckets) {
      refill(bucket, now);
      if (bucket.tokens >= limit.burst) buckets.delete(key);
    }
  }
}
