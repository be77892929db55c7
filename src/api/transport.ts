// `fetch` over node:http and node:https, for ofetch and the event stream.
//
// Node's own fetch (undici) brings its own HTTP/1.1 stack: a connection pool, a parser
// compiled from WebAssembly, and the code both warm up. In the idle client that is some
// 20 MB resident more than node:http's parser, which is part of the node binary
// (`npm run bench`, issue 23). ofetch takes any fetch; this one answers with a standard
// `Response` (its body a web stream), so ofetch and the rest of api/ read it as before.
//
// What it does not do, as parley's requests do not need it: redirects (a 3xx is the answer:
// a token is never sent on to another address), cookies, caches, a `Request` as input.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { NULL_BODY_STATUSES } from "./fetch-classes.ts";

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
