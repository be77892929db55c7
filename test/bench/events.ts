// The cost of /v1/events on the server: 2,000 idle streams on one instance (resident
// memory, and a list request's latency beside them), and the time one message takes to
// reach all 50 members of a group, on SQLite, PostgreSQL, and across two PostgreSQL
// instances. Servers run in child processes seeded through the store with 2,000 users
// (one stream each: a user may hold 16) and a group of the first 50.
//   node test/bench/events.ts
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, type IncomingMessage, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createDatabase, postgresBin, startCluster } from "../postgres/cluster.ts";

const SELF = fileURLToPath(import.meta.url);
const USERS = 2000;
const GROUP = 50;
const FAN_OUTS = 30;

export type Target = { url: string; tokens: string[]; conversationId: string; pid: number };

/** In the child: seed the users and the group through the store, then serve. */
async function serve(db: string): Promise<void> {
  const { openStore } = await import("../../src/server/store/index.ts");
  const { startServer } = await import("../../src/server/index.ts");
  const { hashToken } = await import("../../src/server/tokens.ts");
  const now = Math.floor(Date.now() / 1000);
  const ids = Array.from({ length: USERS }, (_, i) => `ct_bench${i}`);
  const store = await openStore(db, { create: true });
  await store.users.ensure(
    ids.map((id, i) => ({
      id,
      username: `bench${i}`,
      phone_number: null,
      avatar_url: null,
      tokenHash: hashToken(`token-bench-${i}`),
      created_at: now,
    })),
  );
  const members = ids.slice(0, GROUP);
  await store.demo.seedOnce(() => ({
    groups: [{ id: "grp_bench", name: "bench", created_at: now, members }],
    conversations: [
      {
        id: "conv_bench",
        group_id: "grp_bench",
        pair_key: null,
        pinned_message_id: null,
        last_active_at: null,
        created_at: now,
      },
    ],
    memberships: members.map((user_id) => ({
      user_id,
      conversation_id: "conv_bench",
      contact_id: null,
      is_pinned: false,
      is_muted: false,
      archived_at: null,
      last_opened_at: null,
    })),
    messages: [],
    attachments: [],
    reactions: [],
    activity: {},
  }));
  await store.close();
  // 2,000 streams from this machine: past the caps `parley serve` keeps by default.
  const server = await startServer({
    db,
    rateLimit: false,
    connections: { maxConnections: 10_000, maxPerAddress: 10_000 },
  });
  const tokens = ids.map((_, i) => `token-bench-${i}`);
  const target: Target = {
    url: server.url,
    tokens,
    conversationId: "conv_bench",
    pid: process.pid,
  };
  process.stdout.write(`${JSON.stringify(target)}\n`);
  process.once("SIGTERM", () => server.close().then(() => process.exit(0)));
}

export async function startChild(db: string): Promise<{ child: ChildProcess; target: Target }> {
  const child = spawn(process.execPath, [SELF, "--serve", db], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    return { child, target: JSON.parse(line) as Target };
  }
  throw new Error("the events bench server did not start");
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Resident memory of a process, in MB (Linux). */
export function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

type Stream = { response: IncomingMessage; text: string };

function openStream(agent: Agent, url: string, token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/events`, {
      agent,
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    });
    req.on("response", (response) => {
      if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
      const stream: Stream = { response, text: "" };
      response.setEncoding("utf8");
      // Only the newest few KB: enough to find an event, and bounded.
      response.on("data", (chunk: string) => {
        stream.text = (stream.text + chunk).slice(-4096);
      });
      resolve(stream);
    });
    req.on("error", reject);
    req.end();
  });
}

function call(url: string, token: string, method: string, path: string, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body) headers["content-type"] = "application/x-www-form-urlencoded";
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const worst = (values: number[]) => Math.max(...values);

/** Milliseconds from sending a message to all `streams` having its event, `FAN_OUTS` times. */
async function fanOut(sender: Target, streams: Stream[]): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < FAN_OUTS; i++) {
    const started = performance.now();
    const sent = await call(
      sender.url,
      sender.tokens[0]!,
      "POST",
      "/v1/messages",
      `conversation_id=${sender.conversationId}&message=fan+out+${i}`,
    );
    const id = (JSON.parse(sent.body) as { id: string }).id;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (streams.every((s) => s.text.includes(id))) resolve();
        else setImmediate(check);
      };
      check();
    });
    times.push(performance.now() - started);
  }
  return times;
}

/** A list request's latency, one client, 200 in a row: the median. */
async function listLatency(target: Target): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await call(target.url, target.tokens[1]!, "GET", "/v1/conversations?limit=20");
    times.push(performance.now() - started);
  }
  return median(times);
}

async function idleAndFanOut(store: string, db: string, rows: string[]): Promise<void> {
  const { child, target } = await startChild(db);
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const streams: Stream[] = [];
  try {
    const before = residentMb(target.pid);
    const quiet = await listLatency(target);
    for (let i = 0; i < USERS; i += 100) {
      const batch = target.tokens.slice(i, i + 100).map((t) => openStream(agent, target.url, t));
      streams.push(...(await Promise.all(batch)));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const held = residentMb(target.pid);
    const busy = await listLatency(target);
    const times = await fanOut(target, streams.slice(0, GROUP));
    rows.push(
      `| ${store} | 1 | ${streams.length} | ${before.toFixed(0)} → ${held.toFixed(0)} | ${quiet.toFixed(2)} → ${busy.toFixed(2)} | ${median(times).toFixed(1)} / ${worst(times).toFixed(1)} |`,
    );
  } finally {
    for (const s of streams) s.response.destroy();
    agent.destroy();
    await stopChild(child);
  }
}

async function acrossInstances(db: string, rows: string[]): Promise<void> {
  const a = await startChild(db);
  const b = await startChild(db);
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const streams: Stream[] = [];
  try {
    for (const token of b.target.tokens.slice(0, GROUP)) {
      streams.push(await openStream(agent, b.target.url, token));
    }
    const times = await fanOut(a.target, streams);
    rows.push(
      `| PostgreSQL, sent on A, streams on B | 2 | ${streams.length} | – | – | ${median(times).toFixed(1)} / ${worst(times).toFixed(1)} |`,
    );
  } finally {
    for (const s of streams) s.response.destroy();
    agent.destroy();
    await Promise.all([stopChild(a.child), stopChild(b.child)]);
  }
}

export async function benchEvents(): Promise<string> {
  const rows: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-events-"));
  try {
    await idleAndFanOut("SQLite (file)", join(dir, "events.db"), rows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (postgresBin()) {
    const cluster = await startCluster();
    try {
      await idleAndFanOut("PostgreSQL", await createDatabase(cluster.url, "bench"), rows);
      await acrossInstances(await createDatabase(cluster.url, "bench"), rows);
    } finally {
      cluster.stop();
    }
  } else {
    rows.push("| PostgreSQL | – | not installed here: no rows | | | |");
  }
  return [
    `/v1/events: ${USERS} users with one idle stream each on one instance; then one message at a time (${FAN_OUTS} of them) to a group of ${GROUP} whose members all hold a stream, timed from the POST until every stream has the event. Resident memory is the server process's (VmRSS) before the streams and with them held; the list latency is \`GET /v1/conversations\` by one client, median of 200, without and with the streams.`,
    "",
    "| store | instances | streams | resident MB | list p50 ms | fan-out to 50, median / worst ms |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

if (import.meta.main) {
  const at = process.argv.indexOf("--serve");
  if (at !== -1) await serve(process.argv[at + 1]!);
  else process.stdout.write(`${await benchEvents()}\n`);
}
