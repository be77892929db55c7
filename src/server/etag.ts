// Conditional GETs (contract.md "Events"): every successful GET carries a weak ETag, a hash
// of its body, and If-None-Match with it answers 304 without one. The JSON helpers
// (respond.ts) tag what they send; Hono's etag does the rest, and hashes any other GET's
// body itself (node's SHA-1 in place of WebCrypto's saves a promise and a copy).
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { etag } from "hono/etag";

const tag = etag({
  weak: true,
  generateDigest: (body) => createHash("sha1").update(body).digest() as unknown as ArrayBuffer,
});

/** For every path but the event stream, whose body never ends. */
export const conditionalGets: MiddlewareHandler = (c, next) =>
  c.req.path === "/v1/events" ? next() : tag(c, next);
