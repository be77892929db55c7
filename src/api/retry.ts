// Which requests are retried, how often and how long to wait in between.
//
// GETs, and POSTs (which always carry an Idempotency-Key, so a retry never creates a second
// message) are retried on a lost connection, 429 and 5xx; every other request only on 429,
// which the server answers before doing anything. ofetch runs the retries (http.ts) with the
// rule and the delays defined here.
import type { ApiError } from "./errors.ts";

export type RetryPolicy = {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
};

/**
 * How long to wait before retry number `attempt` (0-based): the server's `Retry-After` when it
 * gave one, else `baseDelayMs * 2^attempt` with jitter (between half and all of it); never more
 * than `maxDelayMs`.
 */
export function retryDelay(
  error: ApiError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (error.retryAfter !== undefined) return Math.min(error.retryAfter * 1000, policy.maxDelayMs);
  const full = policy.baseDelayMs * 2 ** attempt;
  return Math.min(policy.maxDelayMs, Math.round(full / 2 + (random() * full) / 2));
}

/** For GETs and idempotent POSTs: no answer, rate limited, or the server failed. */
export function isTransient(error: Failure): boolean {
  return error.code === "network_error" || error.status === 429 || error.status >= 500;
}

/** For everything else: only a 429, which the server sends before doing anything. */
export function isRateLimited(error: Failure): boolean {
  return error.status === 429;
}

type Failure = Pick<ApiError, "status" | "code">;

export type RetryRule = {
  canRetry: (error: Failure) => boolean;
  /** The error statuses `canRetry` accepts, listed, as ofetch's `retryStatusCodes` wants them. */
  statuses: number[];
};

const ERROR_STATUSES = Array.from({ length: 200 }, (_, i) => 400 + i);

const rule = (canRetry: RetryRule["canRetry"]): RetryRule => ({
  canRetry,
  statuses: ERROR_STATUSES.filter((status) => canRetry({ status, code: "" })),
});

const TRANSIENT = rule(isTransient);
const RATE_LIMITED = rule(isRateLimited);

/** The rule for a request by its method. */
export function retryRule(method: string | undefined): RetryRule {
  return method === "GET" || method === "POST" ? TRANSIENT : RATE_LIMITED;
}
