// /v1/contacts: parley's own extension (docs/api.md, "GET /v1/contacts"). The contract
// has no contact endpoints; a client that wants to start a
// conversation by user name asks here which people the server knows. A server without it
// answers 404, and the client then goes on without completion.
//   GET /v1/contacts?query=bo&limit=20
//   -> {"data": [{"id": "ct_bob", "username": "bob"}], "has_more": false}
import { Hono } from "hono";
import { z } from "../../zod.ts";
import type { AppEnv, Services } from "../env.ts";
import { limit, readQuery, validate } from "../params.ts";
import { json, methodNotAllowed } from "../respond.ts";

const DEFAULT_LIMIT = 20;

const SearchQuery = z.object({
  query: z
    .string({ error: "must be text" })
    .max(64, { error: "must be at most 64 characters" })
    .optional(),
  limit: limit.optional(),
});

export function contactRoutes(s: Services) {
  const routes = new Hono<AppEnv>();
  routes.get("/", async (c) => {
    const params = validate(SearchQuery, readQuery(c));
    const max = params.limit ?? DEFAULT_LIMIT;
    const me = c.get("user").id;
    // One more than asked for, and one more for the caller, who is not their own contact.
    const found = await s.store.accounts.search((params.query ?? "").trim().toLowerCase(), max + 2);
    const others = found.filter((u) => u.id !== me);
    return json(c, {
      data: others.slice(0, max).map(({ id, username }) => ({ id, username })),
      has_more: others.length > max,
    });
  });
  routes.all("/", methodNotAllowed(["GET"]));
  return routes;
}
