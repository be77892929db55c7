// /v1/events under a sustained write load: 1,000 messages a second for a minute into a group
// of 50 whose members all hold a stream, while 150 more streams stay open and idle (200
// in all), on SQLite and across two PostgreSQL instances (half the streams and half the
// writers on each). Each message carries its send time; five member streams read every
// event and time it from the POST to the event (send-to-event), the others only drain.
// The lag at the end is how long after the last send the last event reached the five.
//   node --experimental-strip-types test/bench/sustained.ts [seconds]
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, postgresBin, startCluster } from "../postgres/cluster.ts";
import { startChild, stopChild, type Target } from "./events.ts";

const RATE = 1000;
const WRITERS = 50;
const MEMBERS = 50;
const STREAMS = 200;
const TIMED = 5;

type Timed = { latencies: number[]; lastSeen: number; seen: number };

function stream(agent: Agent, url: string, token: string, timed?: Timed): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/events`, {
      agent,
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    });
    req.on("response", (response) => {
      if (response.statusCode !== 200) return reject(new Error(`status ${response.statusCode}`));
      response.setEncoding("utf8");
      let rest = "";
      response.on("data", (chunk: string) => {
        if (!timed) return;
        const now = performance.timeOrigin + performance.now();
        const text = rest + chunk;
        const end = text.lastIndexOf("\n\n");
        rest = end === -1 ? text : text.slice(end + 2);
        for (const m of text.slice(0, end === -1 ? 0 : end).matchAll(/"message":"sent (\d+)/g)) {
          timed.latencies.push(now - Number(m[1]));
          timed.seen++;
          timed.lastSeen = now;
        }
      });
      response.on("close", () => {
        if (timed) timed.lastSeen = Number.NaN;
      });
      resolve(() => response.destroy());
    });
    req.on("error", reject);
    req.end();
  });
}

/** The answer's status, or the request's error code (ECONNRESET…) when none came. */
function post(
  agent: Agent,
  url: string,
  token: string,
  conversationId: string,
): Promise<number | string> {
  const sent = Math.round(performance.timeOrigin + performance.now());
  const body = `conversation_id=${conversationId}&message=sent+${sent}+${"x".repeat(120)}`;
  return new Promise((resolve) => {
    const req = request(
      `${url}/v1/messages`,
      {
        agent,
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/x-www-form-urlencoded",
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end(body);
  });
}

const pct = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

async function run(targets: Target[], seconds: number): Promise<string> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  // The writers' connections close when idle as the server's Keep-Alive hint says (its 5 s
  // less a second), as Node's global agent and so parley's client do. Without `timeout` an
  // Agent keeps them until the server closes them, and a send that took one just then was
  // reset (ECONNRESET: 4 in one run of ten).
  const writing = new Agent({
    keepAlive: true,
    timeout: 5_000,
    maxSockets: Number.POSITIVE_INFINITY,
  });
  const closers: (() => void)[] = [];
  const timed: Timed[] = [];
  try {
    for (let i = 0; i < STREAMS; i++) {
      const target = targets[i % targets.length]!;
      const watch = i < TIMED ? { latencies: [], lastSeen: 0, seen: 0 } : undefined;
      if (watch) timed.push(watch);
      // Users 0-49 are the group's members; 50-199 hold a stream that hears nothing.
      closers.push(await stream(agent, target.url, target.tokens[i]!, watch));
    }
    const started = performance.now();
    let sent = 0;
    let failed = 0;
    // Each failure's status, or its error code when no answer came, to say what failed.
    const failures = new Map<number | string, number>();
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      const target = targets[w % targets.length]!;
      // Writer w sends messages w, w + WRITERS, ... each at its time in the schedule.
      for (let n = w; ; n += WRITERS) {
        const due = started + (n * 1000) / RATE;
        if (due - started >= seconds * 1000) return;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const status = await post(
          writing,
          target.url,
          target.tokens[MEMBERS - 1 - w]!,
          target.conversationId,
        );
        if (status === 200) sent++;
        else {
          failed++;
          failures.set(status, (failures.get(status) ?? 0) + 1);
        }
      }
    });
    await Promise.all(writers);
    const sendingMs = performance.now() - started;
    const lastSent = performance.timeOrigin + performance.now();
    // Until every timed stream has every message (or 60 s more).
    const deadline = performance.now() + 60_000;
    while (timed.some((t) => t.seen < sent) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const caught = timed.every((t) => t.seen >= sent);
    const lag = Math.max(...timed.map((t) => t.lastSeen)) - lastSent;
    const all = timed.flatMap((t) => t.latencies);
    const firstTenth = timed.flatMap((t) =>
      t.latencies.slice(0, Math.floor(t.latencies.length / 10)),
    );
    const lastTenth = timed.flatMap((t) => t.latencies.slice(-Math.floor(t.latencies.length / 10)));
    return [
      `${(sent / (sendingMs / 1000)).toFixed(0)} a second (${sent} sent, ${failed} failed${failed > 0 ? `: ${[...failures].map(([status, n]) => `${n} × ${typeof status === "string" ? `no answer (${status})` : status}`).join(", ")}` : ""})`,
      `${pct(all, 0.5).toFixed(0)} / ${pct(all, 0.99).toFixed(0)}`,
      `${pct(firstTenth, 0.5).toFixed(0)} → ${pct(lastTenth, 0.5).toFixed(0)}`,
      caught
        ? `${Math.max(0, lag).toFixed(0)} ms`
        : `not caught up after 60 s (${Math.min(...timed.map((t) => t.seen))} of ${sent})`,
    ].join(" | ");
  } finally {
    for (const close of closers) close();
    agent.destroy();
    writing.destroy();
  }
}

export async function benchSustained(seconds = 60): Promise<string> {
  const rows: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-sustained-"));
  try {
    const { child, target } = await startChild(join(dir, "sustained.db"));
    try {
      rows.push(`| SQLite (file) | 1 | ${await run([target], seconds)} |`);
    } finally {
      await stopChild(child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (postgresBin()) {
    const cluster = await startCluster();
    try {
      const db = await createDatabase(cluster.url, "sustained");
      const a = await startChild(db);
      const b = await startChild(db);
      try {
        rows.push(`| PostgreSQL | 2 | ${await run([a.target, b.target], seconds)} |`);
      } finally {
        await Promise.all([stopChild(a.child), stopChild(b.child)]);
      }
    } finally {
      cluster.stop();
    }
  } else {
    rows.push("| PostgreSQL | – | not installed here: no row | | | |");
  }
  return [
    `${RATE} messages a second asked for ${seconds} s by ${WRITERS} writers into a group of ${MEMBERS}, every member holding a stream, ${STREAMS - MEMBERS} more streams idle; with two instances, streams and writers are split between them. Send-to-event is from the POST to the event on ${TIMED} member streams; its median in the first and last tenth of the run shows whether the lag grows. Lag at the end: from the last send to the last event.`,
    "",
    "| store | instances | sent | send-to-event p50 / p99 ms | p50 first → last tenth ms | lag at the end |",
    "|---|---:|---|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

if (import.meta.main) {
  process.stdout.write(`${await benchSustained(Number(process.argv[2] ?? 60))}\n`);
}
