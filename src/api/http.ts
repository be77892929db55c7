// One HTTP request of the messaging API and its answer: the only code that speaks HTTP.
//
// ofetch makes the request: its timeout on every attempt, its retries with the rule and the
// delays of retry.ts, its hooks to turn each failure into an ApiError. Requests: form bodies
// in bracket notation, `Authorization: Bearer`. Answers: read with the shared zod schemas.
// Below them, the fetch that ofetch and the event stream use: `httpFetch`, over node:http.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
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
import { NULL_BODY_STATUSES } from "./fetch-classes.ts";
import { encodeForm, type FormValue } from "./form.ts";
import { type RetryPolicy, retryDelay, retryRule } from "./retry.ts";
import { Deleted } from "./schema.ts";

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

// The wire: `fetch` over node:http and node:https, for ofetch and the event stream.
//
// Node's own fetch (undici) brings its own HTTP/1.1 stack: a connection pool, a parser
// compiled from WebAssembly, and the code both warm up. In the idle client that is some
// 20 MB resident more than node:http's parser, which is part of the node binary
// (`npm run bench`, issue 23). ofetch takes any fetch; this one answers with a standard
// `Response` (its body a web stream), so ofetch and the rest of api/ read it as before.
//
// What it does not do, as parley's requests do not need it: redirects (a 3xx is the answer:
// a token is never sent on to another address), cookies, caches, a `Request` as input.

/** fetch's answer to `input`, made with node:http (node:https for an https: address). */
export const httpFetch: typeof globalThis.fetch = async (input, init = {}) => {
  if (typeof input !== "string" && !(input instanceof URL)) {
    throw new TypeError("parley's fetch takes an address, not a Request");
  }
  const url = new URL(input);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const transport = transportFor(url);
  const method = (init.method ?? "GET").toUpperCase();
  const headers = new Headers(init.headers);
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", "gzip, deflate, br");
  // An upload's stream is sent as it is read, with the Content-Length its caller set.
  const stream = init.body instanceof ReadableStream ? init.body : undefined;
  const body = stream ? undefined : bodyBytes(init.body, headers);
  if (body !== undefined) headers.set("content-length", String(body.byteLength));

  return new Promise<Response>((resolve, reject) => {
    const request = transport.request(url, { method, headers: Object.fromEntries(headers) });
    let answer: IncomingMessage | undefined;
    // Aborting after the head ends the body's stream with the signal's reason, as fetch does.
    const abort = () => {
      answer?.destroy(signal?.reason);
      request.destroy(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
    const settled = () => signal?.removeEventListener("abort", abort);
    request.on("error", (error) => {
      settled();
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error }));
    });
    request.once("response", (response) => {
      answer = response;
      response.once("close", settled);
      const stream =
        NULL_BODY_STATUSES.has(response.statusCode ?? 0) || method === "HEAD"
          ? null
          : decoded(response);
      if (stream === null) response.resume();
      try {
        resolve(
          new Response(stream && (Readable.toWeb(stream) as ReadableStream<Uint8Array>), {
            status: response.statusCode,
            statusText: response.statusMessage,
            headers: headerPairs(response),
          }),
        );
      } catch (error) {
        // A status or header that HTTP allows and fetch does not (a status of 600, say).
        response.destroy();
        reject(new TypeError("fetch failed", { cause: error }));
      }
    });
    if (!stream) return request.end(body);
    const source = Readable.fromWeb(stream as import("node:stream/web").ReadableStream);
    source.once("error", (error) => request.destroy(error));
    source.pipe(request);
  });
};

function transportFor(url: URL): typeof import("node:http") | typeof import("node:https") {
  // Loaded with the first request that needs them, not with the UI.
  if (url.protocol === "http:") return process.getBuiltinModule("node:http");
  if (url.protocol === "https:") return process.getBuiltinModule("node:https");
  throw new TypeError(`parley's fetch cannot ask ${url.protocol} addresses`);
}

function bodyBytes(body: RequestInit["body"], headers: Headers): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof URLSearchParams) {
    if (!headers.has("content-type")) {
      headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    }
    return Buffer.from(body.toString());
  }
  throw new TypeError(
    "parley's fetch sends a body of text, bytes, URLSearchParams or a stream only",
  );
}

/** The answer's headers in order, repeated ones (set-cookie) kept apart. */
function headerPairs(response: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/** The body as sent before its content coding (gzip, deflate, br), as fetch gives it. */
function decoded(response: IncomingMessage): Readable {
  const coding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (coding === "" || coding === "identity") return response;
  const zlib = process.getBuiltinModule("node:zlib");
  const decoder =
    coding === "gzip" || coding === "x-gzip"
      ? zlib.createGunzip()
      : coding === "deflate"
        ? zlib.createInflate()
        : coding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  response.once("error", (error) => decoder.destroy(error));
  decoder.once("close", () => response.destroy());
  return response.pipe(decoder);
}
