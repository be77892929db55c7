// Response helpers shared by the routers.
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./env.ts";
import { HttpError } from "./errors.ts";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A 200 with `value` as JSON; the text is kept for Idempotency-Key replays. */
export function json(c: Context<AppEnv>, value: unknown): Response {
  return jsonText(c, JSON.stringify(value));
}

/**
 * The headers of a 200 with JSON. A GET's carries its weak ETag (etag.ts), hashed here from
 * the body in hand: Hono's etag middleware then only compares it with If-None-Match, rather
 * than reading a copy of the response back through a web stream to hash it.
 */
function jsonHeaders(c: Context, body: string | Uint8Array): Record<string, string> {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    return { "content-type": JSON_CONTENT_TYPE };
  }
  const digest = createHash("sha1").update(body).digest("hex");
  return { "content-type": JSON_CONTENT_TYPE, etag: `W/"${digest}"` };
}

/** A 200 with JSON that is already text. */
export function jsonText(c: Context<AppEnv>, text: string): Response {
  c.set("responseBody", text);
  return c.body(text, 200, jsonHeaders(c, text));
}

/** A 200 with JSON that is already encoded; never replayed, as only GETs use it. */
export function jsonBytes(c: Context<AppEnv>, bytes: Uint8Array): Response {
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, jsonHeaders(c, bytes));
}

export function errorJson(c: Context, error: HttpError): Response {
  return c.body(JSON.stringify(error.body()), error.status as ContentfulStatusCode, {
    ...error.headers,
    "content-type": JSON_CONTENT_TYPE,
  });
}

/** A handler for the methods a known path does not have. */
export function methodNotAllowed(allowed: readonly string[]) {
  const allow = allowed.join(", ");
  return (c: Context): never => {
    throw new HttpError(
      405,
      "method_not_allowed",
      `${c.req.path} does not accept ${c.req.method}; use ${allow}.`,
      { headers: { Allow: allow } },
    );
  };
}
