// Throughput and latency of the reference server against a bare Hono app (the ceiling).
//   node test/bench/server.ts
// Each server runs in its own child process; the closed-loop load generator (keep-alive
// node:http agents) runs in this one. Both share the machine's cores, which costs the
// ceiling and the real server alike. The store rows compare a SQLite file with PostgreSQL
// (a throwaway cluster on loopback, test/postgres/cluster.ts), one instance and two behind
// the load generator's round robin.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createDatabase, postgresBin, startCluster } from "../postgres/cluster.ts";
import { benchEvents } from "./events.ts";

const SELF = fileURLToPath(import.meta.url);
const DURATION_MS = 3000;
const WARMUP_MS = 500;

type Target = { url: string; token: string; conversationId: string };
type Call = { method: "GET" | "POST"; path: string; body?: (n: number) => string };
type Result = { rps: number; p50: number; p99: number; errors: number };

/** In the child: start one of the two servers and print what the load needs. */
async function serve(kind: string, db = ":memory:"): Promise<void> {
  if (kind === "hello") {
    const { Hono } = await import("hono");
    const { serve: listen } = await import("@hono/node-server");
    const app = new Hono();
    app.get("/hello", (c) => c.text("hello"));
    const server = listen({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      process.stdout.write(
        `${JSON.stringify({ url: `http://127.0.0.1:${info.port}`, token: "", conversationId: "" })}\n`,
      );
    });
    process.once("SIGTERM", () => server.close(() => process.exit(0)));
    return;
  }
  const { startServer } = await import("../../src/server/index.ts");
  const server = await startServer({
    db,
    demo: true,
    demoReplies: false,
    rateLimit: false,
    pageCache: kind !== "parley-uncached",
  });
  const token = server.demoUsers[0]!.token;
  const list = await fetch(`${server.url}/v1/conversations?group_id=grp_team`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const conversationId = ((await list.json()) as { data: { id: string }[] }).data[0]!.id;
  process.stdout.write(`${JSON.stringify({ url: server.url, token, conversationId })}\n`);
  process.once("SIGTERM", () => server.close().then(() => process.exit(0)));
}

async function startChild(
  kind: string,
  db?: string,
): Promise<{ child: ChildProcess; target: Target }> {
  const child = spawn(process.execPath, [SELF, "--serve", kind, ...(db ? [db] : [])], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    return { child, target: JSON.parse(line) as Target };
  }
  throw new Error(`the ${kind} server did not start`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

function send(agent: Agent, target: Target, call: Call, n: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = call.body?.(n);
    const headers: Record<string, string> = { authorization: `Bearer ${target.token}` };
    if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    const req = request(
      `${target.url}${call.path}`,
      { agent, method: call.method, headers },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * `clients` loops that each send the next request when the last one is answered; with
 * several targets (instances), loop i sends to target i mod n.
 */
async function closedLoop(
  targets: Target | Target[],
  call: Call,
  clients: number,
  ms: number,
): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const started = performance.now();
  const end = started + ms;
  const all = Array.isArray(targets) ? targets : [targets];
  const loop = async (_: unknown, i: number) => {
    const target = all[i % all.length]!;
    while (performance.now() < end) {
      const t0 = performance.now();
      const status = await send(agent, target, call, n++);
      latencies.push(performance.now() - t0);
      if (status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  const elapsed = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { rps: (latencies.length / elapsed) * 1000, p50: at(0.5), p99: at(0.99), errors };
}

async function measure(target: Target | Target[], call: Call, clients: number): Promise<Result> {
  await closedLoop(target, call, clients, WARMUP_MS);
  return closedLoop(target, call, clients, DURATION_MS);
}

export async function benchServer(): Promise<string> {
  const rows: string[] = [];
  const row = (name: string, clients: number, r: Result, ceiling?: Result) => {
    const share = ceiling ? `${Math.round((r.rps / ceiling.rps) * 100)}%` : "100%";
    rows.push(
      `| ${name} | ${clients} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${share} | ${r.errors} |`,
    );
  };

  const ceilings = new Map<number, Result>();
  const hello = await startChild("hello");
  try {
    for (const clients of [1, 32]) {
      const r = await measure(hello.target, { method: "GET", path: "/hello" }, clients);
      ceilings.set(clients, r);
      row("bare Hono `GET /hello` (ceiling)", clients, r);
    }
  } finally {
    await stopChild(hello.child);
  }

  for (const kind of ["parley", "parley-uncached"]) {
    const parley = await startChild(kind);
    try {
      const id = parley.target.conversationId;
      const list: Call = { method: "GET", path: `/v1/messages?limit=50&conversation_id=${id}` };
      const post: Call = {
        method: "POST",
        path: "/v1/messages",
        body: (n) => `conversation_id=${id}&message=bench+message+${n}`,
      };
      const name =
        kind === "parley"
          ? "`GET /v1/messages?limit=50`, page cache on"
          : "`GET /v1/messages?limit=50`, page cache off";
      for (const clients of [1, 32]) {
        row(name, clients, await measure(parley.target, list, clients), ceilings.get(clients));
      }
      if (kind !== "parley") continue;
      for (const clients of [1, 32]) {
        row(
          "`POST /v1/messages`",
          clients,
          await measure(parley.target, post, clients),
          ceilings.get(clients),
        );
      }
    } finally {
      await stopChild(parley.child);
    }
  }

  const stores = await benchStores();
  const events = await benchEvents();

  return [
    `Server benchmark: node ${process.version}, ${availableParallelism()} cores, loopback, closed loop, ${DURATION_MS / 1000} s per row after a ${WARMUP_MS / 1000} s warm-up.`,
    "The load generator shares the cores with the server, for the ceiling and parley alike.",
    "",
    "| scenario | clients | req/s | p50 ms | p99 ms | of ceiling | errors |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    "Stores at 32 clients: a SQLite file, and PostgreSQL (a local cluster on loopback) with one instance and with two on one database (the clients split between them). The list is the team channel's newest 50 (page cache on, as shipped); a send writes a message.",
    "",
    "| store | instances | call | clients | req/s | p50 ms | p99 ms | errors |",
    "|---|---:|---|---:|---:|---:|---:|---:|",
    ...stores,
    "",
    events,
  ].join("\n");
}

const calls = (conversationId: string): [string, Call][] => [
  ["list", { method: "GET", path: `/v1/messages?limit=50&conversation_id=${conversationId}` }],
  [
    "send",
    {
      method: "POST",
      path: "/v1/messages",
      body: (n) => `conversation_id=${conversationId}&message=bench+message+${n}`,
    },
  ],
];

/** SQLite (file) and PostgreSQL (one and two instances) side by side, 32 clients. */
async function benchStores(): Promise<string[]> {
  const rows: string[] = [];
  const clients = 32;
  const run = async (store: string, dbs: string[]) => {
    const children: ChildProcess[] = [];
    try {
      const targets: Target[] = [];
      for (const db of dbs) {
        const started = await startChild("parley", db);
        children.push(started.child);
        targets.push(started.target);
      }
      for (const [name, call] of calls(targets[0]!.conversationId)) {
        const r = await measure(targets, call, clients);
        rows.push(
          `| ${store} | ${dbs.length} | ${name} | ${clients} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} |`,
        );
      }
    } finally {
      await Promise.all(children.map(stopChild));
    }
  };
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-"));
  try {
    await run("SQLite (file)", [join(dir, "bench.db")]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!postgresBin()) {
    rows.push("| PostgreSQL | – | not installed here: no rows | | | | | |");
    return rows;
  }
  const cluster = await startCluster();
  try {
    await run("PostgreSQL", [await createDatabase(cluster.url, "bench")]);
    const shared = await createDatabase(cluster.url, "bench");
    await run("PostgreSQL", [shared, shared]);
  } finally {
    cluster.stop();
  }
  return rows;
}

if (import.meta.main) {
  const at = process.argv.indexOf("--serve");
  if (at !== -1) await serve(process.argv[at + 1] ?? "parley", process.argv[at + 2]);
  else process.stdout.write(`${await benchServer()}\n`);
}
