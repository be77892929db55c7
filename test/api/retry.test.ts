import { describe, expect, it } from "vitest";
import { newIdempotencyKey } from "../../src/api/client.ts";
import {
  ApiError,
  errorFromResponse,
  isApiError,
  networkError,
  networkErrorCode,
  parseRetryAfter,
  timeoutError,
} from "../../src/api/errors.ts";
import {
  backoffDelay,
  isTransient,
  type RetryPolicy,
  retryDelay,
  retryRule,
} from "../../src/api/retry.ts";

const policy: RetryPolicy = { retries: 3, baseDelayMs: 200, maxDelayMs: 30_000 };

const fail = (status: number, retryAfter?: number) =>
  new ApiError({
    status,
    type: status >= 500 ? "api_error" : "invalid_request",
    code: "x",
    message: "x",
    ...(retryAfter !== undefined && { retryAfter }),
  });
const offline = () =>
  networkError("http://h", Object.assign(new Error("x"), { code: "ECONNREFUSED" }));

describe("backoffDelay", () => {
  it("never waits less than the base, even when the base is above the cap", () => {
    expect(backoffDelay(10_000, 3, 8_000, () => 0.5)).toBe(10_000);
  });
});

describe("retryDelay", () => {
  it("is the one back-off: doubling from the base, give or take 15%", () => {
    expect(retryDelay(fail(503), 0, policy, () => 0)).toBe(170);
    expect(retryDelay(fail(503), 0, policy, () => 0.5)).toBe(200);
    expect(retryDelay(fail(503), 1, policy, () => 0.5)).toBe(400);
    expect(retryDelay(fail(503), 2, policy, () => 0.5)).toBe(800);
    for (let i = 0; i < 50; i++) {
      const d = retryDelay(fail(503), 3, policy);
      expect(d).toBeGreaterThanOrEqual(1360);
      expect(d).toBeLessThanOrEqual(1840);
    }
  });

  it("stops doubling at the cap", () => {
    expect(retryDelay(fail(503), 20, policy, () => 0.5)).toBe(30_000);
    expect(retryDelay(fail(503), 20, policy, () => 0)).toBe(25_500);
  });

  it("waits exactly Retry-After when the server gave one, capped", () => {
    expect(retryDelay(fail(429, 2), 0, policy, () => 0)).toBe(2000);
    expect(retryDelay(fail(429, 0), 2, policy)).toBe(0);
    expect(retryDelay(fail(429, 3600), 0, policy)).toBe(30_000);
  });
});

describe("isTransient", () => {
  it("covers no answer, a timeout, 401, 408, 429 and 5xx, nothing else", () => {
    expect(isTransient(offline())).toBe(true);
    expect(isTransient(timeoutError("http://h", 10))).toBe(true);
    for (const status of [401, 408, 429, 500, 503]) expect(isTransient(fail(status))).toBe(true);
    for (const status of [400, 403, 404, 409, 413]) expect(isTransient(fail(status))).toBe(false);
  });

  it("is narrowed for the HTTP layer's own retries: no timeout or 408, no 401, only 429 for PUT and DELETE", () => {
    expect(retryRule("GET").canRetry(offline())).toBe(true);
    expect(retryRule("POST").canRetry(fail(503))).toBe(true);
    expect(retryRule("GET").canRetry(timeoutError("http://h", 10))).toBe(false);
    expect(retryRule("GET").canRetry(fail(401))).toBe(false);
    expect(retryRule("GET").canRetry(fail(408))).toBe(false);
    expect(retryRule("PUT").canRetry(fail(503))).toBe(false);
    expect(retryRule("DELETE").canRetry(fail(429))).toBe(true);
    expect(retryRule("GET").statuses).toEqual([
      429,
      ...Array.from({ length: 100 }, (_, i) => 500 + i),
    ]);
  });
});

describe("errors", () => {
  it("parses Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("5")).toBe(5);
    expect(parseRetryAfter(" 0 ")).toBe(0);
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("finds the system error code deep in fetch's causes, also in an AggregateError", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const wrapped = new Error("wrapper", {
      cause: new TypeError("fetch failed", { cause: refused }),
    });
    expect(networkErrorCode(wrapped)).toBe("ECONNREFUSED");
    const aggregate = new TypeError("fetch failed", {
      cause: new AggregateError([refused, refused], "all failed"),
    });
    expect(networkErrorCode(aggregate)).toBe("ECONNREFUSED");
    expect(networkErrorCode(new Error("plain"))).toBeUndefined();
    expect(networkErrorCode("string")).toBeUndefined();
  });

  it("says what went wrong when there is no code", () => {
    const error = networkError(
      "http://h:1",
      new TypeError("fetch failed", { cause: new Error("bad port") }),
    );
    expect(error.message).toBe("Cannot reach http://h:1 (bad port).");
    expect(networkError("http://h:1", undefined).message).toBe("Cannot reach http://h:1.");
  });

  it("builds an ApiError from any error answer", () => {
    const e = errorFromResponse({
      status: 429,
      body: '{"type":"invalid_request","code":"rate_limited","message":"Too many requests."}',
      retryAfter: "3",
    });
    expect(e).toMatchObject({
      status: 429,
      code: "rate_limited",
      retryAfter: 3,
      message: "Too many requests.",
    });
    expect(isApiError(e)).toBe(true);
    expect(e).not.toHaveProperty("param");
    expect(errorFromResponse({ status: 418, body: "" })).toMatchObject({
      code: "invalid_response",
      type: "invalid_request",
      message: "The server answered 418 without saying why.",
    });
    expect(
      errorFromResponse({ status: 504, body: '"timeout"', contentType: "application/json" }),
    ).toMatchObject({
      code: "internal",
      type: "api_error",
    });
  });

  it("isApiError tells ApiErrors from other errors", () => {
    expect(isApiError(fail(400))).toBe(true);
    expect(isApiError(new Error("x"))).toBe(false);
    expect(isApiError({ status: 400, code: "x" })).toBe(false);
    expect(isApiError(undefined)).toBe(false);
  });
});

describe("newIdempotencyKey", () => {
  it("makes a fresh UUID each time", () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});
