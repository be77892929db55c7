// Every failure of the api client is an ApiError: an error answer of the server (flat or
// Stripe-style nested body, or a body that is not JSON at all), a connection that could not
// be made, a request that timed out, or a response that does not fit the schema.
import { type ErrorCode, ErrorResponse } from "./schema.ts";

/** Codes the client itself uses when there is no usable answer from the server. */
export type ClientErrorCode = "network_error" | "timeout" | "invalid_response";
/** The contract's codes and the client's own; a foreign server may send any other string. */
export type ApiErrorCode = ErrorCode | ClientErrorCode | (string & {});
/**
 * `invalid_request`: the request's fault (4xx); `api_error`: the server's (5xx, or an answer
 * that does not fit the API); `connection_error`: no answer at all (status 0).
 */
export type ApiErrorType = "invalid_request" | "api_error" | "connection_error";

export type ApiErrorInit = {
  status: number;
  type: ApiErrorType;
  code: ApiErrorCode;
  message: string;
  param?: string;
  retryAfter?: number;
  cause?: unknown;
};

export class ApiError extends Error {
  override name = "ApiError";
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  readonly type: ApiErrorType;
  readonly code: ApiErrorCode;
  /** The parameter at fault, when the server named one. */
  declare readonly param?: string;
  /** Seconds to wait before trying again (from `Retry-After`). */
  declare readonly retryAfter?: number;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    if (init.param !== undefined) this.param = init.param;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: "parameter_invalid",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "idempotency_conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  500: "internal",
};

const FALLBACK_MESSAGE: Record<number, string> = {
  401: "The server did not accept the access token; check PARLEY_TOKEN or the config file.",
  403: "You are not allowed to do that.",
  404: "The server does not know that conversation or message.",
  413: "The request is too large for the server.",
  429: "Too many requests; wait a moment and try again.",
};

/** `Retry-After` as seconds: either delay-seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

export type ErrorAnswer = {
  status: number;
  statusText?: string;
  contentType?: string | null;
  retryAfter?: string | null;
  /** The response body as text; empty when there was none. */
  body: string;
};

/** An ApiError for an HTTP error answer (status >= 400), whatever its body looks like. */
export function errorFromResponse(answer: ErrorAnswer): ApiError {
  const { status } = answer;
  const retryAfter = parseRetryAfter(answer.retryAfter ?? null);
  const type: ApiErrorType = status >= 500 ? "api_error" : "invalid_request";
  const fallbackCode = CODE_BY_STATUS[status] ?? (status >= 500 ? "internal" : "invalid_response");
  const base = { status, retryAfter };

  const json = parseJson(answer.body);
  const parsed = json.ok ? ErrorResponse.safeParse(json.value) : undefined;
  if (parsed?.success) {
    const fields = parsed.data;
    const knownType = fields.type === "invalid_request" || fields.type === "api_error";
    return new ApiError({
      ...base,
      type: knownType ? (fields.type as ApiErrorType) : type,
      code: fields.code || fallbackCode,
      message: sentence(fields.message) ?? fallbackMessage(answer),
      param: fields.param,
    });
  }
  const what = answer.body.trim() === "" ? "without saying why" : `with ${describeBody(answer)}`;
  return new ApiError({
    ...base,
    type,
    code: fallbackCode,
    message:
      answer.body.trim() === "" && FALLBACK_MESSAGE[status]
        ? FALLBACK_MESSAGE[status]
        : `The server answered ${statusLabel(answer)} ${what}.`,
  });
}

/** Words for a body that is not the JSON we expected: "an HTML page instead of JSON". */
export function describeBody(answer: Pick<ErrorAnswer, "body" | "contentType">): string {
  const body = answer.body.trim();
  const contentType = (answer.contentType ?? "").toLowerCase();
  if (body === "") return "an empty body instead of JSON";
  if (contentType.includes("html") || /^<(!doctype html|html|head|body)\b/i.test(body)) {
    return "an HTML page instead of JSON";
  }
  if (contentType.startsWith("text/plain"))
    return `plain text instead of JSON (“${excerpt(body)}”)`;
  if (contentType.includes("json")) return "malformed JSON";
  return "a body that is not JSON";
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function fallbackMessage(answer: ErrorAnswer): string {
  return FALLBACK_MESSAGE[answer.status] ?? `The server answered ${statusLabel(answer)}.`;
}

function statusLabel(answer: Pick<ErrorAnswer, "status" | "statusText">): string {
  return answer.statusText ? `${answer.status} (${answer.statusText})` : String(answer.status);
}

function sentence(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  EPIPE: "connection closed",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its TLS certificate is not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another host",
};

/** The first error code (`ECONNREFUSED`, ...) found in an error's causes. */
export function networkErrorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const { code, cause, errors } = current as {
      code?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === "string" && code !== "") return code;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return undefined;
}

/** No answer at all: refused, reset, unknown host, TLS trouble... */
export function networkError(origin: string, cause: unknown): ApiError {
  const code = networkErrorCode(cause);
  const reason = (code && NETWORK_REASONS[code]) ?? code ?? innermostMessage(cause);
  return new ApiError({
    status: 0,
    type: "connection_error",
    code: "network_error",
    message: `Cannot reach ${origin}${reason ? ` (${reason})` : ""}.`,
    cause,
  });
}

export function timeoutError(origin: string, timeoutMs: number, cause?: unknown): ApiError {
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  return new ApiError({
    status: 0,
    type: "connection_error",
    code: "timeout",
    message: `${origin} did not answer within ${seconds}.`,
    cause,
  });
}

export function invalidResponse(status: number, message: string, cause?: unknown): ApiError {
  return new ApiError({ status, type: "api_error", code: "invalid_response", message, cause });
}

function innermostMessage(error: unknown): string | undefined {
  let current = error;
  let message: string | undefined;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message && current.message !== "fetch failed") message = current.message;
    current = current.cause;
  }
  return message;
}
