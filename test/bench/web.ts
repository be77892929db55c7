// `parley web` under load: 200 idle browser sessions held while 50 type, each a WebSocket
// client speaking the page's protocol (src/web/socket.ts) to the built server.
//   node --experimental-strip-types test/bench/web.ts      (after npm run build)
// Run twice: with --demo (a world per visitor) and --demo shared (one world), so that the
// memory of a world is told apart from that of a session. Figures: first frame (from the
// WebSocket's open to a screen with the status bar), key echo (from a key sent to the first
// screen bytes back, one key at a time at a person's pace), and the server's resident
// memory: started, with the 200 idle, with all 250, and after everyone has left.
import { WebSocket } from "ws";
import { IDLE_RETIRE_MS } from "../../src/ssh/idle-gc.ts";
import { CLI as BUILT_CLI, type BuiltServer, startBuilt } from "../built.ts";
import { settledRssMiB } from "../processes.ts";
import { ms, percentile } from "./client.ts";

const CLI = process.env.BENCH_WEB_CLI ?? BUILT_CLI;
const IDLE = Number(process.env.BENCH_WEB_IDLE ?? 200);
const TYPING = Number(process.env.BENCH_WEB_TYPING ?? 50);
const KEYS = "hello from the web bench";
/** About 5 keys a second, as a person types. */
const PACE_MS = 200;
/** Sessions opened at once while filling up. */
const BATCH = 10;
const KEY_TIMEOUT_MS = 20_000;
const FRAME_TIMEOUT_MS = 120_000;

type Server = BuiltServer & { url: URL };

/** 250 sessions take a while to settle, and to be given back once they leave. */
const SETTLED = { everyMs: 500, withinMiB: 1, tries: 60 };

async function startWeb(demo: string[]): Promise<Server> {
  const total = String(IDLE + TYPING + 10);
  const connections = String(2 * Number(total));
  const server = await startBuilt(
    [
      "web",
      "--port",
      "0",
      ...demo,
      ...["--max-sessions", total, "--max-sessions-per-address", total],
      ...["--max-connections", connections, "--max-connections-per-address", connections],
    ],
    { cli: CLI, ready: (line) => /listening on http:\S+/.test(line) },
  );
  return { ...server, url: new URL(/listening on (http:\S+)/.exec(server.banner.at(-1)!)![1]!) };
}

type Visitor = {
  socket: WebSocket;
  /** Screen text since `mark()`. */
  since(): string;
  mark(): void;
  /** Resolves at the next screen bytes. */
  next(): Promise<void>;
  firstFrameMs: number;
};

async function visit(server: Server): Promise<Visitor> {
  const url = new URL("session", server.url);
  url.protocol = "ws:";
  const started = performance.now();
  const socket = new WebSocket(url, { origin: server.url.origin });
  let text = "";
  let waiting: (() => void) | undefined;
  socket.on("message", (data, binary) => {
    if (!binary) return;
    text += String(data);
    if (text.length > 200_000) text = text.slice(-100_000);
    waiting?.();
    waiting = undefined;
  });
  await new Promise<void>((done, fail) => {
    socket.once("open", () => done());
    socket.once("error", fail);
  });
  socket.send(JSON.stringify({ type: "hello", columns: 120, rows: 40, theme: "dark" }));
  const next = () =>
    new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error("no screen bytes in time")), KEY_TIMEOUT_MS);
      waiting = () => {
        clearTimeout(timer);
        done();
      };
    });
  const deadline = performance.now() + FRAME_TIMEOUT_MS;
  while (!text.includes("online")) {
    if (performance.now() > deadline) throw new Error("no first frame in time");
    await next().catch(() => {});
  }
  const firstFrameMs = performance.now() - started;
  let markAt = 0;
  return {
    socket,
    since: () => text.slice(markAt),
    mark: () => {
      markAt = text.length;
    },
    next,
    firstFrameMs,
  };
}

async function openMany(server: Server, count: number): Promise<Visitor[]> {
  const all: Visitor[] = [];
  for (let i = 0; i < count; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - i) }, () => visit(server));
    all.push(...(await Promise.all(batch)));
  }
  return all;
}

/**
 * Opens the selected conversation, then types KEYS one at a time; the echo of each, in ms,
 * and how many got none within KEY_TIMEOUT_MS (the next key is sent anyway).
 */
async function type(visitor: Visitor): Promise<{ echoes: number[]; lost: number }> {
  visitor.mark();
  visitor.socket.send(Buffer.from("\r"));
  while (!visitor.since().includes("Ctrl+J newline")) await visitor.next();
  await new Promise((r) => setTimeout(r, 300));
  const echoes: number[] = [];
  let lost = 0;
  for (const key of KEYS) {
    await new Promise((r) => setTimeout(r, PACE_MS * (0.5 + Math.random())));
    const sent = performance.now();
    const echoed = visitor.next();
    visitor.socket.send(Buffer.from(key));
    try {
      await echoed;
      echoes.push(performance.now() - sent);
    } catch {
      lost++;
    }
  }
  return { echoes, lost };
}

async function closeAll(visitors: Visitor[]): Promise<void> {
  await Promise.all(
    visitors.map(
      (v) =>
        new Promise<void>((done) => {
          if (v.socket.readyState === WebSocket.CLOSED) return done();
          v.socket.once("close", () => done());
          v.socket.close();
        }),
    ),
  );
}

type Run = {
  started: number;
  idle: number;
  full?: number;
  after?: number;
  firstFrames: number[];
  echoes: number[];
  /** Keys with no echo within KEY_TIMEOUT_MS. */
  lost: number;
};

async function run(demo: string[], typing: boolean): Promise<Run> {
  const server = await startWeb(demo);
  const pid = server.child.pid!;
  try {
    const started = await settledRssMiB(pid, SETTLED);
    process.stderr.write(`web bench ${demo.join(" ")}: ${IDLE} idle sessions\n`);
    const idlers = await openMany(server, IDLE);
    const idle = await settledRssMiB(pid, SETTLED);
    const result: Run = {
      started,
      idle,
      firstFrames: idlers.map((v) => v.firstFrameMs),
      echoes: [],
      lost: 0,
    };
    if (typing) {
      process.stderr.write(`web bench ${demo.join(" ")}: ${TYPING} typing\n`);
      const typists = await openMany(server, TYPING);
      result.firstFrames.push(...typists.map((v) => v.firstFrameMs));
      const typed = await Promise.all(typists.map(type));
      result.echoes = typed.flatMap((t) => t.echoes);
      result.lost = typed.reduce((sum, t) => sum + t.lost, 0);
      result.full = await settledRssMiB(pid, SETTLED);
      await closeAll(typists);
    }
    await closeAll(idlers);
    if (typing) {
      // Worker threads without sessions are replaced after IDLE_RETIRE_MS: memory goes then.
      await new Promise((r) => setTimeout(r, IDLE_RETIRE_MS + 5000));
      result.after = await settledRssMiB(pid, SETTLED);
    }
    return result;
  } finally {
    await server.stop();
  }
}

export async function benchWeb(): Promise<string> {
  const own = await run(["--demo"], true);
  const shared = await run(["--demo", "shared"], false);
  const perSession = (shared.idle - shared.started) / IDLE;
  const perOwn = (own.idle - own.started) / IDLE;
  const mib = (n: number | undefined) => (n === undefined ? "" : n.toFixed(0));
  return [
    `The built \`parley web\` in a child process (its default worker threads), and ${IDLE} idle WebSocket sessions opened ${BATCH} at a time, then ${TYPING} more that each open a conversation and type ${KEYS.length} keys one at a time (${PACE_MS} ms apart, jittered), all at once; a key's echo is from sending it to the first screen bytes back. Memory is the server's resident set, settled. With \`--demo\` every session has its own world (an API server with the demo seed in memory); \`--demo shared\` is run with the idle sessions alone, to tell a world's memory from a session's.`,
    "",
    "| run | first frame p50 ms | p99 ms | key echo p50 ms | p99 ms | keys (no echo in 20 s) | RSS started MiB | with idle MiB | with all MiB | after all left MiB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    `| --demo (${IDLE} + ${TYPING} worlds) | ${ms(percentile(own.firstFrames, 0.5))} | ${ms(percentile(own.firstFrames, 0.99))} | ${ms(percentile(own.echoes, 0.5))} | ${ms(percentile(own.echoes, 0.99))} | ${own.echoes.length + own.lost} (${own.lost}) | ${mib(own.started)} | ${mib(own.idle)} | ${mib(own.full)} | ${mib(own.after)} |`,
    `| --demo shared (${IDLE} idle) | ${ms(percentile(shared.firstFrames, 0.5))} | ${ms(percentile(shared.firstFrames, 0.99))} | | | | ${mib(shared.started)} | ${mib(shared.idle)} | | |`,
    "",
    `Per idle session: ${perOwn.toFixed(1)} MiB with a world of its own, ${perSession.toFixed(1)} MiB in the shared world: a world is some ${(perOwn - perSession).toFixed(1)} MiB.`,
  ].join("\n");
}

if (import.meta.main) process.stdout.write(`${await benchWeb()}\n`);
