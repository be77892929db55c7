// The typed client of the messaging API: `createApi` puts the pieces together.
//
//   http.ts       one request and its answer (ofetch, timeouts, errors as ApiErrors)
//   retry.ts      which requests are retried, how often, how long to wait
//   paging.ts     page iterators over the list endpoints
//   endpoints.ts  the endpoint table: paths, fields sent, schemas of the answers
//   etags.ts      the kept ETags and answers of conditional GETs
//   events.ts     the event stream (GET /v1/events), where the server has one
import {
  type ConversationsApi,
  conversationsApi,
  type MessagesApi,
  messagesApi,
} from "./endpoints.ts";
import { type EventsApi, eventsApi } from "./events.ts";
import { createHttp } from "./http.ts";

export {
  type ConversationsApi,
  type MessagesApi,
  newIdempotencyKey,
  type PostOptions,
} from "./endpoints.ts";
export type { EventsApi, EventsState, ServerEvent } from "./events.ts";
export { parseAnswer } from "./http.ts";
export type { RetryPolicy } from "./retry.ts";

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

export type Api = {
  readonly baseUrl: string;
  readonly messages: MessagesApi;
  readonly conversations: ConversationsApi;
  readonly events: EventsApi;
};

export function createApi(options: ApiOptions): Api {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const http = createHttp({
    baseUrl,
    token: options.token,
    timeoutMs,
    policy: {
      retries: options.retries ?? 3,
      baseDelayMs: options.retryDelayMs ?? 200,
      maxDelayMs: options.maxRetryDelayMs ?? 30_000,
    },
    ...(options.fetch && { fetch: options.fetch }),
  });
  const events = eventsApi({
    baseUrl,
    token: options.token,
    timeoutMs,
    ...(options.fetch && { fetch: options.fetch }),
  });
  return { baseUrl, messages: messagesApi(http), conversations: conversationsApi(http), events };
}
