// Headers, Request and Response for the full-screen client's process, in place of Node's.
//
// Node's are undici's, and the first read of `globalThis.Headers`, `Request` or `Response`
// loads and runs the whole of undici (its fetch, pools, WebSocket, cache…): some 5 MB of
// the idle client, which never uses any of it (`npm run bench`, issue 23; README, Memory).
// The client's requests go through node:http (http.ts), and the embedded server's
// Hono app through @hono/node-server, which reads the request straight from node:http and
// writes the response straight back; what both need of these classes is a case-insensitive
// header list and a body read once, as text, bytes or a web stream. That is what is here,
// following the Fetch standard where parley can reach it (header names and values checked,
// a body used once, null-body statuses, clone by tee), and nothing else: no FormData, no
// CORS modes, no `fetch`. `parley serve` and `parley ssh` keep Node's own.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;
/** Answers that have no body whatever their headers say (the Fetch standard's null body statuses). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
const NORMALISED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);
// Neither keeps state between calls (no `stream` option): one of each serves every body.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function headerName(name: unknown): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Invalid header name: "${text}"`);
  return text.toLowerCase();
}

/** The value without leading and trailing HTTP whitespace; CR, LF and NUL refused. */
function headerValue(value: unknown): string {
  const text = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError(`Invalid header value: "${text}"`);
  return text;
}

type HeaderInit = Headers | Iterable<readonly [string, string]> | Record<string, string>;

export class LiteHeaders {
  /** Lower-case name to its values, in the order they came. */
  #values = new Map<string, string[]>();

  constructor(init?: HeaderInit | null) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object") throw new TypeError("Headers take an object or pairs");
    if (#values in init) {
      for (const [name, values] of (init as LiteHeaders).#values) {
        this.#values.set(name, [...values]);
      }
    } else if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2) throw new TypeError("A header pair has a name and a value");
        this.append(pair[0], pair[1]);
      }
    } else {
      for (const name of Object.keys(init)) {
        this.append(name, (init as Record<string, string>)[name]!);
      }
    }
  }

  append(name: string, value: string): void {
    const key = headerName(name);
    const text = headerValue(value);
    const values = this.#values.get(key);
    if (values) values.push(text);
    else this.#values.set(key, [text]);
  }

  set(name: string, value: string): void {
    this.#values.set(headerName(name), [headerValue(value)]);
  }

  delete(name: string): void {
    this.#values.delete(headerName(name));
  }

  get(name: string): string | null {
    return this.#values.get(headerName(name))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(headerName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get("set-cookie") ?? [])];
  }

  /** Sorted by name, values joined, each Set-Cookie apart: as the standard iterates. */
  *entries(): Generator<[string, string], undefined> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name)!;
      if (name === "set-cookie") for (const value of values) yield [name, value];
      else yield [name, values.join(", ")];
    }
  }

  *keys(): Generator<string, undefined> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): Generator<string, undefined> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown) {
    for (const [name, value] of this.entries()) {
      callback.call(thisArg, value, name, this as unknown as Headers);
    }
  }

  [Symbol.iterator](): Generator<[string, string], undefined> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}

type BodySource = Uint8Array | ReadableStream<Uint8Array> | null;

/** A body as bytes or a stream, and the content type the standard gives it when none is set. */
function extractBody(body: unknown): { source: BodySource; type?: string } {
  if (body === undefined || body === null) return { source: null };
  if (typeof body === "string") {
    return { source: encoder.encode(body), type: "text/plain;charset=UTF-8" };
  }
  if (body instanceof URLSearchParams) {
    return {
      source: encoder.encode(body.toString()),
      type: "application/x-www-form-urlencoded;charset=UTF-8",
    };
  }
  if (body instanceof ArrayBuffer) return { source: new Uint8Array(body.slice(0)) };
  if (ArrayBuffer.isView(body)) {
    return { source: new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice() };
  }
  if (body instanceof Blob) {
    return {
      source: body.stream() as ReadableStream<Uint8Array>,
      ...(body.type !== "" && { type: body.type }),
    };
  }
  if (body instanceof ReadableStream) return { source: body };
  throw new TypeError("parley's Request and Response take text, bytes, a Blob or a stream");
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** The standard's Body: read once, as bytes, text, JSON, a Blob or a stream. */
abstract class Body {
  abstract readonly headers: LiteHeaders;
  #source: BodySource = null;
  #stream: ReadableStream<Uint8Array> | null = null;
  #used = false;

  protected setBody(body: unknown, headers: LiteHeaders): void {
    const { source, type } = extractBody(body);
    this.#source = source;
    if (type !== undefined && !headers.has("content-type")) headers.set("content-type", type);
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#source === null) return null;
    if (this.#source instanceof ReadableStream) return this.#source;
    if (!this.#stream) {
      const bytes = this.#source;
      this.#stream = new ReadableStream<Uint8Array>({
        start(controller) {
          if (bytes.byteLength > 0) controller.enqueue(bytes);
          controller.close();
        },
      });
    }
    return this.#stream;
  }

  /** Read through one of the methods below, or a reader holds its stream. */
  get bodyUsed(): boolean {
    if (this.#used) return true;
    const stream = this.#stream ?? this.#source;
    return stream instanceof ReadableStream && stream.locked;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    const source = this.#stream ?? this.#source;
    if (source === null) return new Uint8Array(0);
    const bytes = source instanceof ReadableStream ? await readAll(source) : source;
    // Read once, they are the caller's: copied only when they share a larger buffer.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    return (whole ? bytes : bytes.slice()) as Uint8Array<ArrayBuffer>;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer;
  }

  async text(): Promise<string> {
    return decoder.decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get("content-type") ?? "" });
  }

  async formData(): Promise<never> {
    throw new TypeError("parley's Request and Response do not parse form data");
  }

  /** This body for a clone: a stream is teed, one branch kept here, the other returned. */
  protected bodyForClone(): BodySource {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    const source = this.#stream ?? this.#source;
    if (!(source instanceof ReadableStream)) return source;
    const [mine, theirs] = source.tee();
    this.#source = mine;
    this.#stream = null;
    return theirs;
  }
}

type LiteResponseInit = {
  status?: number;
  statusText?: string;
  headers?: HeaderInit | null;
};

export class LiteResponse extends Body {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LiteHeaders;
  readonly type = "default";
  readonly url: string = "";
  readonly redirected: boolean = false;

  constructor(body?: unknown, init: LiteResponseInit = {}) {
    super();
    const status = init.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`A response's status is from 200 to 599, not ${status}`);
    }
    const statusText = String(init.statusText ?? "");
    if (/[^\t\x20-\x7e\x80-\xff]/.test(statusText)) {
      throw new TypeError(`Invalid status text: "${statusText}"`);
    }
    this.status = status;
    this.statusText = statusText;
    this.headers = new LiteHeaders(init.headers);
    if (body !== undefined && body !== null && NULL_BODY_STATUSES.has(status)) {
      throw new TypeError(`A response with status ${status} has no body`);
    }
    this.setBody(body, this.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  clone(): LiteResponse {
    const copy = new LiteResponse(null, this);
    copy.setBody(this.bodyForClone(), copy.headers);
    return copy;
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }

  static json(data: unknown, init: LiteResponseInit = {}): LiteResponse {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError("The data is not JSON serializable");
    const headers = new LiteHeaders(init.headers);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    return new LiteResponse(text, { ...init, headers });
  }

  static redirect(url: string | URL, status = 302): LiteResponse {
    if (!REDIRECT_STATUSES.has(status)) throw new RangeError(`Invalid redirect status ${status}`);
    return new LiteResponse(null, { status, headers: { location: new URL(url).href } });
  }
}

type LiteRequestInit = {
  method?: string;
  headers?: HeaderInit | null;
  body?: unknown;
  signal?: AbortSignal | null;
  duplex?: "half";
};

/** What a Request is made from: an address, or another request (ours or @hono/node-server's). */
type RequestLike = {
  url: string;
  method: string;
  headers: HeaderInit;
  signal?: AbortSignal;
  body: ReadableStream<Uint8Array> | null;
};

function requestMethod(method: string): string {
  if (!TOKEN.test(method)) throw new TypeError(`'${method}' is not a valid HTTP method.`);
  const upper = method.toUpperCase();
  if (FORBIDDEN_METHODS.has(upper)) throw new TypeError(`'${method}' HTTP method is unsupported.`);
  return NORMALISED_METHODS.has(upper) ? upper : method;
}

export class LiteRequest extends Body {
  readonly url: string;
  readonly method: string;
  readonly headers: LiteHeaders;
  readonly signal: AbortSignal;
  readonly cache = "default";
  readonly credentials = "same-origin";
  readonly destination = "";
  readonly integrity = "";
  readonly keepalive = false;
  readonly mode = "cors";
  readonly redirect = "follow";
  readonly referrer = "about:client";
  readonly referrerPolicy = "";
  readonly duplex = "half";

  constructor(input: string | URL | RequestLike, init: LiteRequestInit = {}) {
    super();
    const from = typeof input === "object" && !(input instanceof URL) ? input : undefined;
    this.url = from ? from.url : new URL(String(input)).href;
    this.method = requestMethod(init.method ?? from?.method ?? "GET");
    this.headers = new LiteHeaders(init.headers ?? from?.headers);
    this.signal = init.signal ?? from?.signal ?? new AbortController().signal;
    const body = "body" in init ? init.body : from?.body;
    if (body !== undefined && body !== null && (this.method === "GET" || this.method === "HEAD")) {
      throw new TypeError("Request with GET/HEAD method cannot have body.");
    }
    this.setBody(body, this.headers);
  }

  clone(): LiteRequest {
    const copy = new LiteRequest(this, { body: null });
    copy.setBody(this.bodyForClone(), copy.headers);
    return copy;
  }

  get [Symbol.toStringTag](): string {
    return "Request";
  }
}

/**
 * Makes these the process's Headers, Request and Response, before anything reads Node's (so
 * undici is never loaded). For the full-screen client's process only.
 */
export function installFetchClasses(): void {
  const classes = { Headers: LiteHeaders, Request: LiteRequest, Response: LiteResponse };
  for (const [name, value] of Object.entries(classes)) {
    // Node's are lazy data properties: redefining one would load undici first, deleting not.
    delete (globalThis as Record<string, unknown>)[name];
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  }
}
