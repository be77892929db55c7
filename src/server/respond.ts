// Response helpers shared by the routers.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./env.ts";
import { HttpError } from "./errors.ts";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A 200 with `value` as JSON; the text is kept for Idempotency-Key replays. */
export function json(c: Context<AppEnv>, value: unknown): Response {
  return jsonText(c, JSON.stringify(value));
}

/** A 200 with JSON that is already text. */
export function jsonText(c: Context<AppEnv>, text: string): Response {
  c.set("responseBody", text);
  return c.body(text, 200, { "content-type": JSON_CONTENT_TYPE });
}

/** A 200 with JSON that is already encoded; never replayed, as only GETs use it. */
export function jsonBytes(c: Context<AppEnv>, bytes: Uint8Array): Response {
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { "content-type": JSON_CONTENT_TYPE });
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
