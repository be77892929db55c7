// What the middleware leaves on the Hono context for the handlers.
import type { Presence } from "./demo/presence.ts";
import type { PageCache } from "./page-cache.ts";
import type { SentEvent, Store, User } from "./store/store.ts";

export type Params = Record<string, unknown>;

export type AppEnv = {
  Variables: {
    user: User;
    /** The parsed request body, once read. */
    body: Params;
    /** The JSON text of a successful response, for Idempotency-Key replays. */
    responseBody: string;
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
  /** Tokens this process issued and keeps in memory only (`parley ssh` sessions) -> user id. */
  localTokens?: ReadonlyMap<string, string>;
};
