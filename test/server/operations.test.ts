// The operations endpoints (docs/api.md "Operations endpoints"): GET /healthz and GET
// /readyz without a token, Prometheus metrics on an address of their own or behind
// PARLEY_METRICS_TOKEN, and, on PostgreSQL, an outage of the database: a 503 for every
// request (not a 500), one log line when it starts and one when it ends, and recovery
// without a restart. The database is cut with a TCP proxy between the server and it.
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { startProxy } from "../e2e/proxy.ts";
import { until } from "../wait.ts";
import { openEvents } from "./sse.ts";
import { freshDb, STORE } from "./stores.ts";

const started: RunningServer[] = [];
afterAll(async () => {
  for (const server of started) await server.close();
});

async function start(options: Parameters<typeof startServer>[0] = {}) {
  const server = await startServer({ demo: true, demoReplies: false, ...options });
  started.push(server);
  return server;
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe("GET /healthz and GET /readyz", () => {
  it("answer 200 without a token, while the API itself still asks for one", async () => {
    const server = await start({ db: await freshDb() });
    for (const [path, status] of [
      ["/healthz", "ok"],
      ["/readyz", "ready"],
    ] as const) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toEqual({ status });
    }
    expect((await fetch(`${server.url}/v1/contacts`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
  });
});

describe("metrics", () => {
  it("on their own address: requests by route pattern and status, latency, streams", async () => {
    const server = await start({ db: await freshDb(), metrics: { host: "127.0.0.1", port: 0 } });
    const alice = server.demoUsers.find((u) => u.username === "alice")!;
    await fetch(`${server.url}/v1/contacts`, bearer(alice.token));
    await fetch(`${server.url}/v1/conversations/conv_nope`, bearer(alice.token));
    await fetch(`${server.url}/v1/contacts`);
    const response = await fetch(server.metricsUrl!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(
      /^parley_http_requests_total\{method="GET",route="\/v1\/contacts",status="200"\} 1$/m,
    );
    expect(text).toMatch(
      /^parley_http_requests_total\{method="GET",route="\/v1\/contacts",status="401"\} 1$/m,
    );
    // The route's pattern, never the id in the path.
    expect(text).toMatch(/route="\/v1\/conversations\/:id",status="404"\} 1$/m);
    expect(text).not.toContain("conv_nope");
    expect(text).toMatch(
      /^parley_http_request_duration_seconds_count\{method="GET",route="\/v1\/contacts"\} 2$/m,
    );
    expect(text).toMatch(/^parley_event_streams 0$/m);
    // The fan-out has handed out every event, and no stream is being caught up.
    expect(text).toMatch(/^parley_events_lag 0$/m);
    expect(text).toMatch(/^parley_event_streams_behind 0$/m);
    expect(text).toMatch(/^parley_ssh_sessions 0$/m);
    expect(text).toMatch(/^parley_database_up 1$/m);
    expect(text).toMatch(/^parley_process_resident_memory_bytes \d+/m);
    expect((await fetch(server.metricsUrl!.replace("/metrics", "/v1/contacts"))).status).toBe(404);
  });

  it("the PostgreSQL pool: connections in use, idle, and waiting on a lock", async () => {
    const db = await freshDb();
    const server = await start({ db, metrics: { host: "127.0.0.1", port: 0 } });
    const scrape = async () => await (await fetch(server.metricsUrl!)).text();
    const connections = (text: string, state: string) =>
      Number(
        text.match(
          new RegExp(`^parley_database_connections\\{state="${state}"\\} (\\d+)$`, "m"),
        )?.[1],
      );
    if (STORE === "sqlite") {
      // One connection, used synchronously: there is no pool to tell of.
      const text = await scrape();
      expect(text).not.toContain("parley_database_connections");
      expect(text).toMatch(/^parley_database_pool_max 1$/m);
      return;
    }
    const alice = server.demoUsers[0]!;
    expect((await fetch(`${server.url}/v1/contacts`, bearer(alice.token))).status).toBe(200);
    const quiet = await scrape();
    expect(quiet).toMatch(/^parley_database_pool_max 10$/m);
    expect(connections(quiet, "idle")).toBeGreaterThanOrEqual(1);
    expect(connections(quiet, "in_use")).toBeGreaterThanOrEqual(0);
    expect(connections(quiet, "waiting")).toBe(0);

    // Another program holds the users table: a request's sign-in waits on its lock.
    const { default: postgres } = await import("postgres");
    const other = postgres(db, { max: 1, onnotice: () => {} });
    try {
      let blocked: Promise<Response> | undefined;
      await other.begin(async (tx) => {
        await tx`LOCK TABLE users IN ACCESS EXCLUSIVE MODE`;
        blocked = fetch(`${server.url}/v1/contacts`, bearer(alice.token));
        await until(async () => connections(await scrape(), "waiting") >= 1, "a request waiting");
      });
      expect((await blocked!).status).toBe(200);
      await until(async () => connections(await scrape(), "waiting") === 0, "none waiting");
    } finally {
      await other.end();
    }
  });

  it("on the API's port only with PARLEY_METRICS_TOKEN's token", async () => {
    const server = await start({ db: await freshDb(), metricsToken: "metrics-secret-1" });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, bearer("metrics-secret-2"))).status).toBe(401);
    const alice = server.demoUsers[0]!;
    expect((await fetch(`${server.url}/metrics`, bearer(alice.token))).status).toBe(401);
    const response = await fetch(`${server.url}/metrics`, bearer("metrics-secret-1"));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("parley_http_requests_total");
  });
});

/** A fresh PostgreSQL database, reached through a proxy that can cut the server off. */
async function dbBehindProxy() {
  const db = new URL(await freshDb());
  const proxy = await startProxy({ target: { host: db.hostname, port: Number(db.port) } });
  const through = new URL(db);
  through.host = `${proxy.host}:${proxy.port}`;
  return { proxy, db: through.toString() };
}

describe.skipIf(STORE !== "postgres")("PostgreSQL down", () => {
  it("is a 503 per request, one log line per outage, and recovers on its own", async () => {
    const { proxy, db } = await dbBehindProxy();
    const log: string[] = [];
    const server = await start({ db, log: (line) => log.push(line) });
    const alice = server.demoUsers[0]!;
    const contacts = () => fetch(`${server.url}/v1/contacts`, bearer(alice.token));
    expect((await contacts()).status).toBe(200);

    await proxy.cut("refuse");
    for (let i = 0; i < 3; i++) {
      const response = await contacts();
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(((await response.json()) as { message: string }).message).toMatch(
        /cannot reach its database/,
      );
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const outage = log.filter((l) => l.startsWith("database unreachable"));
    expect(outage, log.join("\n")).toHaveLength(1);
    expect(log.join("\n")).not.toMatch(/^\s+at /m);

    await proxy.restore();
    await until(() => log.some((l) => l.startsWith("database reachable again")), "recovery");
    expect((await contacts()).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    // The outage in two lines, and nothing else in the log about it.
    expect(log.filter((l) => !l.startsWith("parley server listening"))).toEqual([
      expect.stringMatching(/^database unreachable: .*; answering 503 until it is back$/),
      expect.stringMatching(/^database reachable again after \d+ s$/),
    ]);
    await proxy.close();
  });

  it("with only event streams open, is noticed by them and said once, not at every keep-alive", async () => {
    const { proxy, db } = await dbBehindProxy();
    const log: string[] = [];
    const server = await start({
      db,
      log: (line) => log.push(line),
      events: { keepAliveMs: 100 },
    });
    const stream = await openEvents(server.url, server.demoUsers[0]!.token);
    expect(stream.status).toBe(200);

    await proxy.cut("refuse");
    // No request at all: the streams' token checks find the outage.
    await until(() => log.some((l) => l.startsWith("database unreachable")), "the outage noticed");
    // Several keep-alives (each a failed check) go by during the outage.
    const seen = stream.comments.length;
    await until(() => stream.comments.length >= seen + 5, "keep-alives during the outage");
    await proxy.restore();
    await until(() => log.some((l) => l.startsWith("database reachable again")), "recovery");
    expect(log.filter((l) => !l.startsWith("parley server listening"))).toEqual([
      expect.stringMatching(/^database unreachable: /),
      expect.stringMatching(/^database reachable again after \d+ s$/),
    ]);
    stream.close();
    await proxy.close();
  });
});
