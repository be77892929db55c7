// /v1/events: the Server-Sent Events stream of contract.md "Events". The hub
// (src/server/events/hub.ts) writes to the node response itself, for its back-pressure.
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono } from "hono";
import type { AppEnv, Services } from "../env.ts";
import { HttpError } from "../errors.ts";
import { methodNotAllowed } from "../respond.ts";

const EVENT_STREAM = /(^|,)\s*text\/event-stream\s*(;|,|$)/i;

export function eventRoutes(s: Services) {
  const routes = new Hono<AppEnv>();

  routes.get("/", async (c) => {
    // Asked for by name only: a client that does not know the stream gets an answer it can read.
    if (!EVENT_STREAM.test(c.req.header("accept") ?? "")) {
      throw new HttpError(
        406,
        "unsupported_media_type",
        "/v1/events answers only Accept: text/event-stream (Server-Sent Events).",
      );
    }
    // Hono answers HEAD with the GET route: the headers, and no stream to hold open.
    if (c.req.method === "HEAD") return c.body(null, 200, { "content-type": "text/event-stream" });
    const { outgoing } = c.env as unknown as HttpBindings;
    const user = { id: c.get("user").id, token: c.get("token") };
    await s.events.open(user, outgoing, c.req.header("last-event-id"));
    return RESPONSE_ALREADY_SENT;
  });

  routes.all("/", methodNotAllowed(["GET"]));
  return routes;
}
