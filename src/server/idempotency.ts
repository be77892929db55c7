// Idempotency-Key on POST: the same user and key within 24 h get the first response again,
// and nothing new is created; the same key with other parameters is a 409. The key is
// claimed in the store before the request runs, so this holds across instances too.
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv, Services } from "./env.ts";
import { HttpError, invalid } from "./errors.ts";
import { readBody } from "./params.ts";
import { JSON_CONTENT_TYPE } from "./respond.ts";

const conflict = (message: string) => new HttpError(409, "idempotency_conflict", message);

export function idempotency(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.method === "POST" ? c.req.header("idempotency-key") : undefined;
    if (key === undefined) return next();
    if (key.length === 0 || key.length > 255) {
      throw invalid(
        "Idempotency-Key",
        "The Idempotency-Key header must be 1 to 255 characters long.",
      );
    }
    const user = c.get("user");
    const body = await readBody(c);
    const fingerprint = createHash("sha256")
      .update(`${c.req.method} ${c.req.path} ${canonicalJson(body)}`)
      .digest("base64url");
    const now = services.now();
    const claim = await services.store.idempotency.claim(user.id, key, fingerprint, now);
    const used =
      claim.state === "done"
        ? claim.response.fingerprint
        : claim.state === "pending"
          ? claim.fingerprint
          : fingerprint;
    if (used !== fingerprint) {
      throw conflict(
        "This Idempotency-Key was already used with other parameters. Use a new key for a new request.",
      );
    }
    if (claim.state === "pending") throw claimLost();
    if (claim.state === "done") {
      return c.body(claim.response.body, claim.response.status as ContentfulStatusCode, {
        "content-type": JSON_CONTENT_TYPE,
        "Idempotent-Replayed": "true",
      });
    }
    const claimed = { key, fingerprint, now, answered: false };
    c.set("idempotency", claimed);
    try {
      await next();
      const text = c.get("responseBody");
      if (!claimed.answered && c.res.status === 200 && text !== undefined) {
        const response = { fingerprint, status: 200, body: text };
        await services.store.idempotency.complete({ userId: user.id, key, response, now });
        claimed.answered = true;
      }
    } finally {
      if (!claimed.answered) await services.store.idempotency.release(user.id, key);
    }
  };
}

/**
 * For a route whose write must commit with its answer (a send): the answer to store with
 * it when the request claimed an Idempotency-Key; `stored` says it was.
 */
export function answerFor(c: Context<AppEnv>, text: string) {
  const claimed = c.get("idempotency");
  if (!claimed) return { answer: undefined, stored() {} };
  const { key, fingerprint, now } = claimed;
  const response = { fingerprint, status: 200, body: text };
  return {
    answer: { userId: c.get("user").id, key, response, now },
    stored() {
      claimed.answered = true;
    },
  };
}

/** The claim was taken over (its instance seemed gone): the other request answers. */
export const claimLost = () =>
  conflict("A request with this Idempotency-Key is still in progress. Retry in a moment.");

/** JSON with object keys sorted, so equal parameters give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
