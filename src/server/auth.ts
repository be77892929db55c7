// Bearer authentication and the per-token rate limit.
import type { MiddlewareHandler } from "hono";
import type { AuthFailures } from "./auth-failures.ts";
import type { AppEnv, Services } from "./env.ts";
import { HttpError } from "./errors.ts";
import { createRateLimiter, type RateLimit } from "./rate-limit.ts";
import { hashToken } from "./tokens.ts";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

const unauthenticated = (message: string) =>
  new HttpError(401, "unauthenticated", message, { headers: { "WWW-Authenticate": "Bearer" } });

/** How finely a user's `last_active_at` follows their requests (see below). */
const ACTIVITY_PRECISION_SECONDS = 300;

export function authenticate(
  services: Services,
  failures?: AuthFailures,
): MiddlewareHandler<AppEnv> {
  // When each token was last recorded as used (`parley users tokens`), as precise as
  // last_active_at and for the same reason: not a write per request.
  const recorded = new Map<string, number>();
  const tokenUsed = async (hash: string, now: number) => {
    if ((recorded.get(hash) ?? 0) >= now - ACTIVITY_PRECISION_SECONDS) return;
    if (recorded.size >= 10_000) recorded.clear();
    recorded.set(hash, now);
    await services.store.accounts.tokenUsed(hash, now);
  };
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) {
      throw unauthenticated(
        "Send your access token in an Authorization header: Authorization: Bearer <token>.",
      );
    }
    const token = BEARER.exec(header)?.[1];
    if (!token) {
      throw unauthenticated('The Authorization header must have the form "Bearer <token>".');
    }
    // A token this process gave a `parley ssh` session, else one stored (as its hash).
    const local = services.localTokens?.get(token);
    const hash = local ? undefined : hashToken(token);
    const user = local
      ? await services.store.users.byId(local)
      : await services.store.users.byTokenHash(hash!);
    if (!user) {
      await failures?.failed(c);
      throw unauthenticated("The access token is not known to this server. Check PARLEY_TOKEN.");
    }
    if (hash !== undefined) await tokenUsed(hash, services.now());
    await services.presence.seen(user.id);
    const now = services.now();
    // A contact's last_active_at is written at most every 5 minutes: it shows in every
    // message the user sent, so a finer clock would change the ETag of every page they
    // are in at each of their own requests, and a client's once-a-minute refresh would
    // never be answered 304.
    if ((user.last_active_at ?? 0) < now - ACTIVITY_PRECISION_SECONDS) {
      await services.store.users.touch(user.id, now);
      user.last_active_at = now;
    }
    c.set("user", user);
    c.set("token", token);
    // Who the token is: a client that was given only a token keeps its drafts by it.
    c.header("Parley-User", user.username);
    await next();
  };
}

export function rateLimit(limit: RateLimit): MiddlewareHandler<AppEnv> {
  const limiter = createRateLimiter(limit);
  return async (c, next) => {
    const wait = limiter.take(c.get("user").id);
    if (wait > 0) {
      throw new HttpError(
        429,
        "rate_limited",
        `Too many requests with this token. Wait ${wait} second${wait === 1 ? "" : "s"} and try again.`,
        { headers: { "Retry-After": String(wait) } },
      );
    }
    await next();
  };
}
