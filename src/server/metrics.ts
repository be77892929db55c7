// Prometheus metrics (prom-client), one registry per server: requests by route and status,
// their latency, the event streams and `parley ssh` sessions held, the database's state.
// Served on an address of their own (--metrics HOST:PORT) or, with PARLEY_METRICS_TOKEN
// set, at GET /metrics on the API's port behind that token. Loaded only then (index.ts):
// the client's embedded server, `parley serve` without them and the tests go without.
import { createServer, type Server } from "node:http";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { DatabaseHealth } from "./health.ts";
import { listenOn } from "./listen.ts";
import type { Store } from "./store/index.ts";

export type Metrics = {
  /** One finished request: `route` is the route's pattern (never the raw path). */
  observe(method: string, route: string, status: number, seconds: number): void;
  /** How many `parley ssh` sessions are open, asked at each scrape. */
  countSshSessions(count: () => number): void;
  text(): Promise<string>;
  contentType: string;
};

export function createMetrics(parts: {
  store: Store;
  health: DatabaseHealth;
  streams: () => number;
  /** Streams catching up from the store, and the newest event handed to the streams. */
  events?: { behind: () => number; readThrough: () => number };
  poolMax?: number;
}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "parley_" });
  const requests = new Counter({
    name: "parley_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "parley_http_request_duration_seconds",
    help: "Time to answer a request (for /v1/events: how long the stream was open).",
    labelNames: ["method", "route"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  let sshSessions: (() => number) | undefined;
  new Gauge({
    name: "parley_event_streams",
    help: "Open /v1/events streams on this instance.",
    registers: [registry],
    collect() {
      this.set(parts.streams());
    },
  });
  new Gauge({
    name: "parley_ssh_sessions",
    help: "Open parley ssh sessions (0 for parley serve).",
    registers: [registry],
    collect() {
      this.set(sshSessions?.() ?? 0);
    },
  });
  new Gauge({
    name: "parley_database_up",
    help: "1 while the database answers, 0 during an outage.",
    registers: [registry],
    collect() {
      this.set(parts.health.up() ? 1 : 0);
    },
  });
  new Counter({
    name: "parley_database_outages_total",
    help: "Times the database stopped answering since start.",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(parts.health.outages());
    },
  });
  new Gauge({
    name: "parley_database_pool_max",
    help: "Connections the PostgreSQL pool may open (1 for SQLite).",
    registers: [registry],
    collect() {
      this.set(parts.poolMax ?? 1);
    },
  });
  if (parts.store.pool) {
    const pool = parts.store.pool;
    new Gauge({
      name: "parley_database_connections",
      help: "The PostgreSQL pool's connections: in_use (a statement or a transaction), idle, waiting (on a lock).",
      labelNames: ["state"],
      registers: [registry],
      async collect() {
        const now = parts.health.up() ? await pool().catch(() => undefined) : undefined;
        if (!now) return;
        this.set({ state: "in_use" }, now.inUse);
        this.set({ state: "idle" }, now.idle);
        this.set({ state: "waiting" }, now.waiting);
      },
    });
  }
  new Gauge({
    name: "parley_events_newest_id",
    help: "The newest event id in the database; with the clients' Last-Event-ID, how far behind a stream is.",
    registers: [registry],
    async collect() {
      if (parts.health.up()) this.set((await parts.store.events.bounds()).newest);
    },
  });
  new Gauge({
    name: "parley_events_lag",
    help: "Events in the database this instance has not yet handed to its streams (its fan-out's lag).",
    registers: [registry],
    async collect() {
      if (!parts.events || !parts.health.up()) return;
      const { newest } = await parts.store.events.bounds();
      this.set(Math.max(0, newest - parts.events.readThrough()));
    },
  });
  new Gauge({
    name: "parley_event_streams_behind",
    help: "Streams being caught up from the database: their clients read slower than events come.",
    registers: [registry],
    collect() {
      this.set(parts.events?.behind() ?? 0);
    },
  });
  return {
    observe(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    countSshSessions(count) {
      sshSessions = count;
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

/** `--metrics HOST:PORT`: GET /metrics alone, on an address of its own. */
export async function serveMetrics(
  metrics: Metrics,
  host: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.url !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Only GET /metrics here.\n");
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { "content-type": metrics.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  const bound = await listenOn(server, port, host);
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
