// What is worth trying again, and how long to wait in between: the one rule and the one
// back-off of the client. The HTTP layer (http.ts, through ofetch) retries at once what a
// moment's wait can fix; the outbox and the polls (ui/queries) wait longer with the same
// rule and the same formula.
import { type ApiError, isApiError } from "./errors.ts";

export type RetryPolicy = {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
};

/**
 * Each wait is drawn from its value ±15%. Clients that start together (the sessions of
 * `parley ssh`, a room that opens the demo at once, everyone after a server restart) would
 * otherwise poll and retry in step for good: all their requests at the same instant.
 */
export const JITTER = 0.3;

/**
 * The back-off: `baseMs` doubled per failure (`failures` 0 is `baseMs` itself), at most
 * `maxMs` (never below `baseMs`: a failure does not make anything faster), jittered.
 */
export function backoffDelay(
  baseMs: number,
  failures: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const delay = Math.min(Math.max(maxMs, baseMs), baseMs * 2 ** Math.max(0, failures));
  return Math.round(delay * (1 - JITTER / 2 + random() * JITTER));
}

/**
 * How long to wait before retry number `attempt` (0-based): the server's `Retry-After` when it
 * gave one (never more than `maxDelayMs`), else the back-off.
 */
export function retryDelay(
  error: ApiError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (error.retryAfter !== undefined) return Math.min(error.retryAfter * 1000, policy.maxDelayMs);
  return backoffDelay(policy.baseDelayMs, attempt, policy.maxDelayMs, random);
}

type Failure = Pick<ApiError, "status" | "code">;

const isFailure = (error: unknown): error is Failure =>
  isApiError(error) ||
  (typeof error === "object" && error !== null && typeof (error as Failure).status === "number");

/**
 * Whether the same request, tried again later, can succeed: no answer (refused, reset, timed
 * out), the server's own failure (5xx), 408, a rate limit (429), or a token the server did
 * not take (401, which the person can fix). Anything else the server refused and will refuse
 * again. An error that is not an answer at all (it broke on the way) is worth another try.
 */
export function isTransient(error: unknown): boolean {
  if (!isFailure(error)) return true;
  const { status } = error;
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

/**
 * What the HTTP layer retries at once, for GETs and POSTs (which always carry an
 * Idempotency-Key, so a retry never creates a second message): the transient failures, but
 * not a timeout, ours or the server's 408 (the server may still be working on it, and another
 * full wait would hold the screen), nor a 401 (only the person can fix it). The outbox and
 * the polls try those again later.
 */
function isRetriedAtOnce(error: Failure): boolean {
  return (
    isTransient(error) && error.code !== "timeout" && error.status !== 408 && error.status !== 401
  );
}

/** For every other method: only a 429, which the server sends before doing anything. */
export function isRateLimited(error: Failure): boolean {
  return error.status === 429;
}

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

const AT_ONCE = rule(isRetriedAtOnce);
const RATE_LIMITED = rule(isRateLimited);

/** The rule for a request by its method. */
export function retryRule(method: string | undefined): RetryRule {
  return method === "GET" || method === "POST" ? AT_ONCE : RATE_LIMITED;
}
