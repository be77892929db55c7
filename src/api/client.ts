// The typed client of the messaging API: `createApi` puts the pieces together.
//
//   http.ts       one request and its answer (ofetch, timeouts, errors as ApiErrors)
//   retry.ts      which requests are retried, how often, how long to wait
//   paging.ts     page iterators over the list endpoints
//   endpoints.ts  the endpoint table: paths, fields sent, schemas of the answers
//   etags.ts      the kept ETags and answers of conditional GETs
//   events.ts     the event stream (GET /v1/events), where the server has one
import {
  type ContactsApi,
  type ConversationsApi,
  contactsApi,
  conversationsApi,
  type MessagesApi,
  messagesApi,
} from "./endpoints.ts";
import { type EventsApi, eventsApi } from "./events.ts";
import { type FilesApi, filesApi } from "./files.ts";
import { createHttp } from "./http.ts";

export {
  type ContactsApi,
  type ConversationsApi,
  type MessagesApi,
  newIdempotencyKey,
  type PeopleFound,
  type PostOptions,
} from "./endpoints.ts";
export type { EventsApi, EventsState, ServerEvent } from "./events.ts";
export type { FilesApi, Uploaded, UploadLimits, UploadSource } from "./files.ts";
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
  /** The most bytes read of one answer; a larger one is refused. Default 8 MiB. */
  maxBodyBytes?: number;
  /**
   * Told, once per kind, when an answer was cut to a limit (a page of more items than
   * `MAX_PAGE_ITEMS` beyond its `limit`), in a sentence for a person.
   */
  onLimit?: (message: string) => void;
  /** A fetch implementation in place of the global one. */
  fetch?: typeof globalThis.fetch;
};

/** What one answer may weigh, unless set otherwise. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export type Api = {
  readonly baseUrl: string;
  readonly messages: MessagesApi;
  readonly conversations: ConversationsApi;
  /** parley's own extension; a foreign server answers `supported: false`. */
  readonly contacts: ContactsApi;
  readonly events: EventsApi;
  /** Uploads, where the server has them (contract.md "Uploads"). */
  readonly files: FilesApi;
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
    maxBodyBytes: options.maxBodyBytes ?? MAX_ANSWER_BYTES,
    ...(options.fetch && { fetch: options.fetch }),
  });
  const told = new Set<string>();
  const onLimit = (message: string) => {
    // Once per kind of answer: a poll would otherwise say it every few seconds.
    const kind = message.replace(/\d+/g, "N");
    if (told.has(kind)) return;
    told.add(kind);
    options.onLimit?.(message);
  };
  const events = eventsApi({
    baseUrl,
    token: options.token,
    timeoutMs,
    ...(options.fetch && { fetch: options.fetch }),
  });
  return {
    baseUrl,
    messages: messagesApi(http, onLimit),
    conversations: conversationsApi(http, onLimit),
    contacts: contactsApi(http),
    events,
    files: filesApi(http),
  };
}
