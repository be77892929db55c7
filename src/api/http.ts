// One HTTP request of the messaging API and its answer: the only code that speaks HTTP.
//
// Requests: form bodies in bracket notation, `Authorization: Bearer`, a timeout on every
// attempt, retried as retry.ts says. Answers: read with the shared zod schemas. Failures:
// always an ApiError.
import { ofetch } from "ofetch";
import type { z } from "zod";
import {
  ApiError,
  describeBody,
  errorFromResponse,
  invalidResponse,
  networkError,
  parseJson,
  timeoutError,
} from "./errors.ts";
import { encodeForm, type FormValue } from "./form.ts";
import { type RetryPolicy, retryRule, withRetries } from "./retry.ts";
import { Deleted } from "./schema.ts";

export type HttpOptions = {
  /** Without a trailing slash. */
  baseUrl: string;
  token: string;
  timeoutMs: number;
  policy: RetryPolicy;
  fetch?: typeof globalThis.fetch;
};

export type Method = "GET" | "POST" | "PUT" | "DELETE";
export type Form = { readonly [key: string]: FormValue };

export type Call = {
  method: Method;
  path: string;
  query?: Form;
  body?: Form;
  idempotencyKey?: string;
};

/** A successful answer (status below 400), its body as text. */
export type Answer = { status: number; body: string; contentType: string | null };

export type Http = {
  /** The answer to `call`, after the retries its method allows, or an ApiError. */
  request(call: Call): Promise<Answer>;
};

export function createHttp({ baseUrl, token, timeoutMs, policy, fetch }: HttpOptions): Http {
  const $fetch = ofetch.create(
    {
      baseURL: baseUrl,
      retry: false,
      ignoreResponseError: true,
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    },
    fetch ? { fetch } : {},
  );

  /** One attempt: an answer with a status below 400, or an ApiError. */
  async function attempt(call: Call): Promise<Answer> {
    const query = call.query ? encode(call.query) : "";
    const body = call.body ? encode(call.body) : undefined;
    const headers: Record<string, string> = {};
    if (call.body) headers["content-type"] = "application/x-www-form-urlencoded";
    if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Awaited<ReturnType<typeof $fetch.raw<string, "text">>>;
    try {
      response = await $fetch.raw<string, "text">(query ? `${call.path}?${query}` : call.path, {
        method: call.method,
        headers,
        ...(body !== undefined && { body }),
        signal,
        responseType: "text",
      });
    } catch (error) {
      if (signal.aborted) throw timeoutError(baseUrl, timeoutMs, error);
      throw networkError(baseUrl, error);
    }
    const answer: Answer = {
      status: response.status,
      body: typeof response._data === "string" ? response._data : "",
      contentType: response.headers.get("content-type"),
    };
    if (answer.status >= 400) {
      throw errorFromResponse({
        ...answer,
        statusText: response.statusText,
        retryAfter: response.headers.get("retry-after"),
      });
    }
    return answer;
  }

  return {
    request: (call) => withRetries(() => attempt(call), retryRule(call.method), policy),
  };
}

/** The form encoding of parameters; a value that cannot be sent is the caller's error, as an ApiError. */
function encode(params: Form): string {
  try {
    return encodeForm(params);
  } catch (error) {
    throw new ApiError({
      status: 0,
      type: "invalid_request",
      code: "parameter_invalid",
      message: error instanceof Error ? error.message : String(error),
      cause: error,
    });
  }
}

/** The body of a successful answer through its schema; anything else is `invalid_response`. */
export function parseAnswer<S extends z.ZodType>(
  answer: Answer,
  schema: S,
  what: string,
): z.output<S> {
  const result = schema.safeParse(answerJson(answer));
  if (!result.success) {
    throw invalidResponse(
      answer.status,
      `The server's ${what} does not fit the messaging API: ${describeIssues(result.error)}.`,
      result.error,
    );
  }
  return result.data;
}

/**
 * The answer to a DELETE: no body, or `{id, deleted}` as the contract says; any other JSON with
 * a success status (some servers answer with the deleted object) still means it is gone.
 */
export function parseDeleted(answer: Answer, id: string): Deleted {
  if (answer.body.trim() === "") return { id, deleted: true };
  const parsed = Deleted.safeParse(answerJson(answer));
  return parsed.success ? parsed.data : { id, deleted: true };
}

function answerJson(answer: Answer): unknown {
  const json = parseJson(answer.body);
  if (!json.ok) {
    throw invalidResponse(
      answer.status,
      `The server answered ${answer.status} with ${describeBody(answer)}.`,
    );
  }
  return json.value;
}

function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path
      .map((part, i) =>
        typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`,
      )
      .join("");
    return `${path || "the body"}: ${issue.message.replace(/^Invalid input: /, "")}`;
  });
  const more = error.issues.length - shown.length;
  return `${shown.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`;
}
