// What the middleware leaves on the Hono context for the handlers.
import type { Presence } from "./demo/presence.ts";
import type { EventHub } from "./events/hub.ts";
import type { PageCache } from "./page-cache.ts";
import type { SentEvent, Store, User } from "./store/store.ts";

export type Params = Record<string, unknown>;

export type IdempotencyClaim = { key: string; fingerprint: string; now: number; answered: boolean };

export type AppEnv = {
  Variables: {
    user: User;
    /** The bearer token the request came with (a stream is checked against it later). */
    token: string;
    /** The parsed request body, once read. */
    body: Params;
    /** The JSON text of a successful response, for Idempotency-Key replays. */
    responseBody: string;
    /** The Idempotency-Key this request claimed; `answered` once a route stored its answer. */
    idempotency: IdempotencyClaim;
  };
};

/** What the routes need besides the request. */
export type Services = {
  store: Store;
  pages: PageCache;
  /** Unix seconds. */
  now: () => number;
  newId: (prefix: "msg_" | "conv_" | "att_") => string;
  /** Told of every authenticated request, so the demo users do not answer for who is signed in. */
  presence: Presence;
  onMessageSent: (message: SentEvent) => void;
  /** The instance's /v1/events streams. */
  events: EventHub;
  /** Tokens this process issued and keeps in memory only (`parley ssh` sessions) -> user id. */
  localTokens?: ReadonlyMap<string, string>;
};
