// One HTTP request of the messaging API and its answer: the only code that speaks HTTP.
//
// ofetch makes the request: its timeout on every attempt, its retries with the rule and the
// delays of retry.ts, its hooks to turn each failure into an ApiError. Requests: form bodies
// in bracket notation, `Authorization: Bearer`. Answers: read with the shared zod schemas.
import type { z } from "../zod.ts";
import {
  ApiError,
  describeBody,
  errorFromResponse,
  invalidResponse,
  isApiError,
  networkError,
  parseJson,
  timeoutError,
} from "./errors.ts";
import { type Answer, createETags } from "./etags.ts";
import { encodeForm, type FormValue } from "./form.ts";
import { type RetryPolicy, retryDelay, retryRule } from "./retry.ts";
import { Deleted } from "./schema.ts";
import { httpFetch } from "./transport.ts";

export type HttpOptions = {
  /** Without a trailing slash. */
  baseUrl: string;
  token: string;
  timeoutMs: number;
  policy: RetryPolicy;
  /** The most bytes read of one answer's body; a larger one is an `invalid_response`. */
  maxBodyBytes: number;
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
  /** A body sent as it is read (an upload), in place of a form: never retried. */
  stream?: StreamBody;
};

export type StreamBody = {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  length: number;
  /** The whole request's time, which for a large file is more than the usual one. */
  timeoutMs: number;
};

/** A successful answer (status below 400), its body as text. */
export type { Answer };

export type Http = {
  /** The answer to `call`, after the retries its method allows, or an ApiError. */
  request(call: Call): Promise<Answer>;
};

/**
 * ofetch, loaded with the first request: a start that draws from the kept cache has then
 * drawn its first frame already. (Loading it reads `globalThis.Headers`: in the client's
 * process parley's own, fetch-classes.ts; elsewhere Node's, which loads undici.)
 */
let ofetchModule: Promise<typeof import("ofetch")> | undefined;
type $Fetch = ReturnType<typeof import("ofetch")["ofetch"]["create"]>;
const loadOfetch = () => {
  ofetchModule ??= import("ofetch");
  return ofetchModule;
};

/** Loads ofetch ahead of the first request, when that is known to come. */
export function prepareHttp(): void {
  void loadOfetch();
}

/**
 * A page of a conversation's history further back than the newest: never polled, and let
 * go when the client's window of pages moves on (ui/queries/history.ts), so its answer is
 * not kept for a 304 either (64 of them were some 1.7 MB of the client's heap).
 */
const isHistoryPage = (path: string, query: string) =>
  path === "/v1/messages" && /(?:^|&)(?:starting_after|ending_before)=/.test(query);

export function createHttp(options: HttpOptions): Http {
  const { baseUrl } = options;
  const etags = createETags();
  let created: Promise<$Fetch> | undefined;
  const $fetch = () => {
    created ??= loadOfetch().then(({ ofetch }) => createFetch(ofetch, options));
    return created;
  };

  return {
    async request(call) {
      const query = call.query ? encode(call.query) : "";
      const body = call.body ? encode(call.body) : undefined;
      const headers: Record<string, string> = {};
      if (call.body) headers["content-type"] = "application/x-www-form-urlencoded";
      if (call.stream) {
        headers["content-type"] = call.stream.contentType;
        headers["content-length"] = String(call.stream.length);
      }
      if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
      // The query string is ours (form.ts): ofetch's `query` does not write bracket notation.
      const url = query ? `${call.path}?${query}` : call.path;
      const conditional = call.method === "GET" ? etags.tagFor(url) : undefined;
      if (conditional !== undefined) headers["if-none-match"] = conditional;
      try {
        const response = await (await $fetch()).raw(url, {
          method: call.method,
          headers,
          ...(body !== undefined && { body }),
          ...(call.stream && {
            body: call.stream.body,
            duplex: "half",
            retry: 0,
            timeout: call.stream.timeoutMs,
          }),
          retryStatusCodes: retryRule(call.method).statuses,
        });
        const kept = response.status === 304 ? etags.kept(url) : undefined;
        if (kept) return kept;
        const answer = {
          status: response.status,
          body: bodyText(response._data),
          contentType: response.headers.get("content-type"),
        };
        if (call.method === "GET" && !isHistoryPage(call.path, query)) {
          etags.remember(url, response.headers.get("etag"), answer);
        }
        return answer;
      } catch (error) {
        // ofetch wraps the last attempt's failure, which the hooks made an ApiError; anything
        // else that stopped the request is reported as no answer, as fetch's own failures are.
        const { FetchError } = await loadOfetch();
        const cause = error instanceof FetchError ? error.cause : undefined;
        throw isApiError(cause) ? cause : networkError(baseUrl, error);
      }
    },
  };
}

/** ofetch set up for one server: the timeout, the retries and the errors (see the top). */
function createFetch(
  ofetch: typeof import("ofetch")["ofetch"],
  { baseUrl, token, timeoutMs, policy, maxBodyBytes, fetch = httpFetch }: HttpOptions,
): $Fetch {
  return ofetch.create(
    {
      baseURL: baseUrl,
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      responseType: "text",
      timeout: timeoutMs,
      retry: policy.retries,
      // `options.retry` counts down the retries left; the hooks below made the error an ApiError.
      retryDelay: (ctx) =>
        retryDelay(ctx.error as ApiError, policy.retries - Number(ctx.options.retry), policy),
      onRequest(ctx) {
        // ofetch arms its timeout only when there is no signal yet, and a retry inherits the
        // first attempt's spent one (ofetch 1.5, unjs/ofetch#621): drop it, so each has its own.
        delete ctx.options.signal;
      },
      onRequestError(ctx) {
        // An answer too large (readingBody) is already an ApiError.
        const error = isApiError(ctx.error)
          ? ctx.error
          : ctx.options.signal?.aborted
            ? timeoutError(baseUrl, timeoutMs, ctx.error)
            : networkError(baseUrl, ctx.error);
        ctx.error = error;
        // ofetch files every failure without an answer under status 500, so it would retry a
        // timeout like a server error (and a server may still be working on it): the rule decides.
        if (!retryRule(ctx.options.method).canRetry(error)) ctx.options.retry = false;
      },
      onResponseError(ctx) {
        const { response } = ctx;
        ctx.error = errorFromResponse({
          status: response.status,
          statusText: response.statusText,
          contentType: response.headers.get("content-type"),
          retryAfter: response.headers.get("retry-after"),
          body: bodyText(response._data),
        });
      },
    },
    { fetch: readingBody(fetch, maxBodyBytes) },
  );
}

/**
 * ofetch reads the body only after it has stopped its timer, and outside its retries: a body
 * that stalls would never time out, one that breaks off would not be retried. So the attempt
 * reads it here, inside fetch, where both apply. ofetch has no limit on a body's size: it is
 * read here as a stream, counting bytes, and stopped past `maxBytes` (an endless body would
 * otherwise fill the memory).
 */
function readingBody(fetch: typeof globalThis.fetch, maxBytes: number): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = await readCapped(response, maxBytes);
    return new Response(body.byteLength > 0 ? body : null, response);
  };
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () =>
    invalidResponse(
      response.status,
      `The server's answer is larger than ${formatBytes(maxBytes)}; parley stops reading there.`,
    );
  const declared = Number(response.headers.get("content-length"));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function formatBytes(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return mib >= 1 ? `${Math.round(mib * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function bodyText(data: unknown): string {
  return typeof data === "string" ? data : "";
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

/**
 * What each answer was read as, by schema. A 304 hands out the kept answer again (etags.ts),
 * which is then read as the same object: no JSON to parse and check again at every poll,
 * and TanStack Query finds its data unchanged without comparing it field by field. (The
 * same URL is the same `prepare`: a page's cut depends on the `limit` in it.)
 */
const readAnswers = new WeakMap<Answer, WeakMap<z.ZodType, unknown>>();

/**
 * The body of a successful answer through its schema; anything else is `invalid_response`.
 * `prepare` may trim the parsed JSON before the schema reads it (a page too long, paging.ts).
 */
export function parseAnswer<S extends z.ZodType>(
  answer: Answer,
  schema: S,
  what: string,
  prepare: (json: unknown) => unknown = (json) => json,
): z.output<S> {
  const read = readAnswers.get(answer);
  if (read?.has(schema)) return read.get(schema) as z.output<S>;
  const result = schema.safeParse(prepare(answerJson(answer)));
  if (!result.success) {
    throw invalidResponse(
      answer.status,
      `The server's ${what} does not fit the messaging API: ${describeIssues(result.error)}.`,
      result.error,
    );
  }
  if (read) read.set(schema, result.data);
  else readAnswers.set(answer, new WeakMap([[schema, result.data]]));
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
