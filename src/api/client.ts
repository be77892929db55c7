// The typed client of the messaging API: the only code that speaks HTTP.
//
// Requests: form bodies in bracket notation, `Authorization: Bearer`, a timeout on every
// attempt. Responses: parsed with the shared zod schemas. Failures: always an ApiError.
// Retries (one function, `withRetries`): GETs, and POSTs (which always carry an
// Idempotency-Key, so a retry never creates a second message) on a lost connection, 429
// and 5xx; every other request only on 429, which the server answers before doing anything.
import { ofetch } from "ofetch";
import type { z } from "zod";
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
import { encodeForm, type FormValue } from "./form.ts";
import {
  Conversation,
  type CreateConversationParams,
  Deleted,
  type ListConversationsParams,
  type ListMessagesParams,
  Message,
  Page,
  type SendMessageParams,
  type UpdateConversationParams,
  type UpdateMessageParams,
} from "./schema.ts";

export type ApiOptions = {
  /** Where the API lives, e.g. `http://127.0.0.1:4317` (paths start with `/v1`). */
  baseUrl: string;
  token: string;
  /** Per attempt, including reading the body. Default 10 s. */
  timeoutMs?: number;
  /** Retries after the first attempt, for the requests that may be retried. Default 3. */
  retries?: number;
  /** Base of the exponential backoff (doubled per retry, with jitter). Default 200 ms. */
  retryDelayMs?: number;
  /** Upper bound of one wait between attempts, `Retry-After` included. Default 30 s. */
  maxRetryDelayMs?: number;
  /** A fetch implementation in place of the global one. */
  fetch?: typeof globalThis.fetch;
};

export type PostOptions = {
  /** Repeating a POST with the same key returns the first result; generated when absent. */
  idempotencyKey?: string;
};

export type MessagesApi = {
  list(params?: ListMessagesParams): Promise<Page<Message>>;
  /** Pages one after the other: older ones with `starting_after`, or newer ones when started with `ending_before`. */
  pages(params?: ListMessagesParams): AsyncGenerator<Page<Message>, void, undefined>;
  send(params: SendMessageParams, options?: PostOptions): Promise<Message>;
  get(id: string): Promise<Message>;
  update(id: string, params: UpdateMessageParams): Promise<Message>;
  delete(id: string): Promise<Deleted>;
};

export type ConversationsApi = {
  list(params?: ListConversationsParams): Promise<Page<Conversation>>;
  pages(params?: ListConversationsParams): AsyncGenerator<Page<Conversation>, void, undefined>;
  /** Returns the existing conversation when there already is one with that contact or group. */
  create(params: CreateConversationParams, options?: PostOptions): Promise<Conversation>;
  /** Also marks the conversation opened and others' messages in it read. */
  get(id: string): Promise<Conversation>;
  update(id: string, params: UpdateConversationParams): Promise<Conversation>;
  delete(id: string): Promise<Deleted>;
};

export type Api = {
  readonly baseUrl: string;
  readonly messages: MessagesApi;
  readonly conversations: ConversationsApi;
};

/** A fresh key for the `Idempotency-Key` header: one per draft, reused when it is retried. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

// ---- retries ----

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

/** Runs `attempt` until it succeeds, fails in a way `canRetry` refuses, or retries run out. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  canRetry: (error: ApiError) => boolean,
  policy: RetryPolicy,
  sleep: (ms: number) => Promise<void> = defaultSleep,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isApiError(error) || retry >= policy.retries || !canRetry(error)) throw error;
      await sleep(retryDelay(error, retry, policy));
    }
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** For GETs and idempotent POSTs: no answer, rate limited, or the server failed. */
export function isTransient(error: ApiError): boolean {
  return error.code === "network_error" || error.status === 429 || error.status >= 500;
}

/** For everything else: only a 429, which the server sends before doing anything. */
export function isRateLimited(error: ApiError): boolean {
  return error.status === 429;
}

// ---- the client ----

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Form = { readonly [key: string]: FormValue };

type Call = {
  method: Method;
  path: string;
  query?: Form;
  body?: Form;
  idempotencyKey?: string;
};

type Answer = { status: number; body: string; contentType: string | null };

const MessagePage = Page(Message);
const ConversationPage = Page(Conversation);

const LIST_MESSAGES_KEYS = ["conversation_id", "limit", "starting_after", "ending_before"] as const;
const SEND_MESSAGE_KEYS = ["conversation_id", "message", "attachments"] as const;
const UPDATE_MESSAGE_KEYS = ["message", "reactions", "attachments"] as const;
const LIST_CONVERSATIONS_KEYS = [
  "limit",
  "muted",
  "archived",
  "pinned",
  "group_id",
  "starting_after",
  "ending_before",
] as const;
const CREATE_CONVERSATION_KEYS = ["contact_id", "group_id"] as const;
const UPDATE_CONVERSATION_KEYS = [
  "pinned_message_id",
  "is_pinned",
  "is_muted",
  "archived_at",
] as const;

export function createApi(options: ApiOptions): Api {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const policy: RetryPolicy = {
    retries: options.retries ?? 3,
    baseDelayMs: options.retryDelayMs ?? 200,
    maxDelayMs: options.maxRetryDelayMs ?? 30_000,
  };
  const $fetch = ofetch.create(
    {
      baseURL: baseUrl,
      retry: false,
      ignoreResponseError: true,
      headers: { authorization: `Bearer ${options.token}`, accept: "application/json" },
    },
    options.fetch ? { fetch: options.fetch } : {},
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

  function request(call: Call): Promise<Answer> {
    const canRetry = call.method === "GET" || call.method === "POST" ? isTransient : isRateLimited;
    return withRetries(() => attempt(call), canRetry, policy);
  }

  async function fetchParsed<S extends z.ZodType>(
    call: Call,
    schema: S,
    what: string,
  ): Promise<z.output<S>> {
    return parseAnswer(await request(call), schema, what);
  }

  async function remove(path: string, id: string): Promise<Deleted> {
    const answer = await request({ method: "DELETE", path });
    if (answer.body.trim() === "") return { id, deleted: true };
    const json = parseJson(answer.body);
    if (!json.ok) {
      throw invalidResponse(
        answer.status,
        `The server answered ${answer.status} with ${describeBody(answer)}.`,
      );
    }
    // `{id, deleted}` as the contract says; any other JSON with a success status (some servers
    // answer with the deleted object) still means it is gone.
    const parsed = Deleted.safeParse(json.value);
    return parsed.success ? parsed.data : { id, deleted: true };
  }

  function pager<
    P extends { starting_after?: string; ending_before?: string },
    T extends { id: string },
  >(list: (params: P) => Promise<Page<T>>) {
    return async function* pages(params: P): AsyncGenerator<Page<T>, void, undefined> {
      const backwards = params.ending_before !== undefined && params.starting_after === undefined;
      const seen = new Set<string>();
      let current = params;
      for (;;) {
        const page = await list(current);
        yield page;
        const edge = backwards ? page.data[0] : page.data[page.data.length - 1];
        if (!page.has_more || edge === undefined) return;
        if (seen.has(edge.id)) {
          throw invalidResponse(
            200,
            `The server sent the same page twice; it seems to ignore ${backwards ? "ending_before" : "starting_after"}.`,
          );
        }
        seen.add(edge.id);
        current = backwards
          ? { ...current, ending_before: edge.id }
          : { ...current, starting_after: edge.id };
      }
    };
  }

  const messagePath = (id: string) => `/v1/messages/${encodeURIComponent(id)}`;
  const conversationPath = (id: string) => `/v1/conversations/${encodeURIComponent(id)}`;

  const listMessages = (params: ListMessagesParams = {}) =>
    fetchParsed(
      { method: "GET", path: "/v1/messages", query: pick(params, LIST_MESSAGES_KEYS) },
      MessagePage,
      "list of messages",
    );
  const listConversations = (params: ListConversationsParams = {}) =>
    fetchParsed(
      { method: "GET", path: "/v1/conversations", query: pick(params, LIST_CONVERSATIONS_KEYS) },
      ConversationPage,
      "list of conversations",
    );
  const messagePages = pager(listMessages);
  const conversationPages = pager(listConversations);

  const messages: MessagesApi = {
    list: listMessages,
    pages: (params = {}) => messagePages(params),
    send: (params, { idempotencyKey } = {}) =>
      fetchParsed(
        {
          method: "POST",
          path: "/v1/messages",
          body: pick(params, SEND_MESSAGE_KEYS),
          idempotencyKey: idempotencyKey ?? newIdempotencyKey(),
        },
        Message,
        "sent message",
      ),
    get: (id) => fetchParsed({ method: "GET", path: messagePath(id) }, Message, "message"),
    update: (id, params) =>
      fetchParsed(
        { method: "PUT", path: messagePath(id), body: pick(params, UPDATE_MESSAGE_KEYS) },
        Message,
        "updated message",
      ),
    delete: (id) => remove(messagePath(id), id),
  };

  const conversations: ConversationsApi = {
    list: listConversations,
    pages: (params = {}) => conversationPages(params),
    create: (params, { idempotencyKey } = {}) =>
      fetchParsed(
        {
          method: "POST",
          path: "/v1/conversations",
          body: pick(params, CREATE_CONVERSATION_KEYS),
          idempotencyKey: idempotencyKey ?? newIdempotencyKey(),
        },
        Conversation,
        "new conversation",
      ),
    get: (id) =>
      fetchParsed({ method: "GET", path: conversationPath(id) }, Conversation, "conversation"),
    update: (id, params) =>
      fetchParsed(
        {
          method: "PUT",
          path: conversationPath(id),
          body: pick(params, UPDATE_CONVERSATION_KEYS),
        },
        Conversation,
        "updated conversation",
      ),
    delete: (id) => remove(conversationPath(id), id),
  };

  return { baseUrl, messages, conversations };
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
 * Only the parameters an endpoint has, so that nothing else a caller carries is sent. An empty
 * list of attachments adds nothing and is left out rather than sent as `attachments=`.
 */
function pick(params: object, keys: readonly string[]): Form {
  const source = params as Record<string, FormValue>;
  const out: Record<string, FormValue> = {};
  for (const key of keys) {
    const value = source[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  return out;
}

/** The body of a successful answer through its schema; anything else is `invalid_response`. */
export function parseAnswer<S extends z.ZodType>(
  answer: { status: number; body: string; contentType: string | null },
  schema: S,
  what: string,
): z.output<S> {
  const json = parseJson(answer.body);
  if (!json.ok) {
    throw invalidResponse(
      answer.status,
      `The server answered ${answer.status} with ${describeBody(answer)}.`,
    );
  }
  const result = schema.safeParse(json.value);
  if (!result.success) {
    throw invalidResponse(
      answer.status,
      `The server's ${what} does not fit the messaging API: ${describeIssues(result.error)}.`,
      result.error,
    );
  }
  return result.data;
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
