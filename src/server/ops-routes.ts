// What an operator's tools ask, without a user's token: GET /healthz (the process answers),
// GET /readyz (and so does its database), GET /metrics (with PARLEY_METRICS_TOKEN); and
// what every request leaves behind: its metrics and its access line.
import { timingSafeEqual } from "node:crypto";
import type { HttpBindings } from "@hono/node-server";
import type { Context, Hono } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./env.ts";
import type { DatabaseHealth } from "./health.ts";
import type { Metrics } from "./metrics.ts";

export type Ops = {
  health: DatabaseHealth;
  metrics: Metrics;
  /** GET /metrics on the API's port needs this as its bearer token; unset, there is none. */
  metricsToken?: string | undefined;
  /** One line per answered request; the caller formats and escapes it. */
  access?: ((line: AccessLine) => void) | undefined;
};

export type AccessLine = {
  method: string;
  route: string;
  status: number;
  ms: number;
  user: string | undefined;
};

const JSON_TYPE = "application/json; charset=utf-8";

/** A server nobody scrapes: nothing counted, and prom-client never loaded (metrics.ts). */
export const noMetrics: Metrics = {
  observe() {},
  countSshSessions() {},
  text: async () => "",
  contentType: "text/plain; charset=utf-8",
};

const WILDCARD = new Set(["/*", "*", ""]);

/**
 * The route's pattern, never the path itself (ids would make a label per message): the
 * last route that matched besides the middleware every path goes through.
 */
function routeOf(c: Context<AppEnv>): string {
  const route = matchedRoutes(c).findLast((r) => !WILDCARD.has(r.path));
  return route?.path ?? "unmatched";
}

const sameSecret = (given: string, secret: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function addOpsRoutes(app: Hono<AppEnv>, ops: Ops): void {
  app.use(async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      // The event stream's answer was written to the socket by the hub.
      const outgoing = (c.env as HttpBindings | undefined)?.outgoing;
      const status = outgoing?.headersSent ? outgoing.statusCode : c.res.status;
      const route = routeOf(c);
      ops.metrics.observe(c.req.method, route, status, seconds);
      ops.access?.({
        method: c.req.method,
        route,
        status,
        ms: Math.round(seconds * 1000),
        user: c.get("user")?.username,
      });
    }
  });
  const answer = (c: Context, status: 200 | 503, body: object) =>
    c.body(JSON.stringify(body), status, {
      "content-type": JSON_TYPE,
      "cache-control": "no-store",
    });
  app.get("/healthz", (c) => answer(c, 200, { status: "ok" }));
  app.get("/readyz", async (c) =>
    (await ops.health.check())
      ? answer(c, 200, { status: "ready" })
      : answer(c, 503, { status: "unavailable", reason: "database" }),
  );
  const token = ops.metricsToken;
  if (token) {
    app.get("/metrics", async (c) => {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
      if (given === undefined || !sameSecret(given, token)) {
        return c.body("GET /metrics needs Authorization: Bearer $PARLEY_METRICS_TOKEN.\n", 401, {
          "www-authenticate": "Bearer",
          "content-type": "text/plain; charset=utf-8",
        });
      }
      return c.body(await ops.metrics.text(), 200, { "content-type": ops.metrics.contentType });
    });
  }
}
