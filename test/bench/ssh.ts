// Keystroke-to-frame latency of `parley ssh`, alone and with 20 sessions at once, and what
// the SSH server process holds in memory.
//   node test/bench/ssh.ts        (after npm run build; npm run bench builds)
//   node test/bench/ssh.ts --under-load | --attack   (one section alone)
// The built `parley ssh --demo --db :memory:` runs as a child process; this process drives
// the clients, signed in as the demo users in turn, each with a 120x40 terminal: either
// ssh2 Clients in this process (JavaScript SSH), or the system's OpenSSH client, each in
// its own pseudo-terminal (util-linux `script`), as people connect and as the client
// benchmark runs the local client. Each session opens its first conversation and types
// into the composer, one key at a time: a key goes out when the previous one's frame has
// arrived in full. "first bytes": from writing the key to the first bytes of output back;
// "frame": to the last byte before the output goes quiet for QUIET_MS. The server, the
// clients and this process share the cores.

import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { IDLE_RETIRE_MS } from "../../src/ssh/idle-gc.ts";
import { RESIZE_EVERY_MS } from "../../src/ssh/sessions.ts";
import { CLI as BUILT_CLI, type BuiltServer, sshPort, startBuilt } from "../built.ts";
import { rssMiB, settledRssMiB } from "../processes.ts";
import { type ClientFigures, processCpuMs } from "./client.ts";

// BENCH_SSH_CLI: another build to measure (say main's, for a before-and-after).
const CLI = process.env.BENCH_SSH_CLI ?? BUILT_CLI;
const USERS = ["alice", "bob", "carol", "dave", "erin", "frank"];
const KEYS = "the quick brown fox jumps over the lazy dog";
const QUIET_MS = 40;
/** Typing like a person: about 5 keys a second (60 words a minute), jittered. */
const PACE_MS = 200;
/** How long a key may wait for its frame before the run fails (raised under load). */
let keyTimeoutMs = 5000;
const SETTLE_MS = 500;
// Diagnostics only: extra node flags for the server (e.g. --cpu-prof), extra arguments to
// parley ssh (e.g. BENCH_SSH_ARGS="--threads 1"), and which rows to run, as
// sessions:pace:client (e.g. BENCH_SSH_ROWS=1:0:openssh,20:200:ssh2).
const NODE_FLAGS = (process.env.BENCH_SSH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
const SSH_ARGS = (process.env.BENCH_SSH_ARGS ?? "").split(" ").filter(Boolean);
const ROWS = (
  process.env.BENCH_SSH_ROWS ??
  `1:0:openssh,20:0:openssh,20:${PACE_MS}:openssh,20:0:ssh2,20:${PACE_MS}:ssh2`
)
  .split(",")
  .map((row) => {
    const [count, pace, client = "openssh"] = row.split(":");
    return [Number(count), Number(pace), client as ClientKind] as const;
  });

type Server = BuiltServer & { port: number };

const SETTLED = { everyMs: 250, withinMiB: 0.5, tries: 40 };

async function startServer(extraArgs: string[] = []): Promise<Server> {
  const server = await startBuilt(
    // One world for every session, as before per-visitor worlds: the demo users chat.
    ["ssh", "--port", "0", "--db", ":memory:", "--demo", "shared", ...SSH_ARGS, ...extraArgs],
    { cli: CLI, nodeFlags: NODE_FLAGS, ready: (line) => /listening on \S+ port \d+/.test(line) },
  );
  return { ...server, port: sshPort(server.banner) };
}

/** Per added session: from the first 1-session row to the first row with more after it. */
function perAddedSession(rows: Row[]): string {
  const one = rows.findIndex((r) => r.sessions === 1);
  const many = rows.findIndex((r, i) => i > one && r.sessions > 1);
  if (one < 0 || many < 0) return "";
  const { rss: from } = rows[one]!;
  const { rss: to, sessions } = rows[many]!;
  return `${((to - from) / (sessions - 1)).toFixed(1)} MiB per added session (${Math.round(from)} MiB with 1 session, ${Math.round(to)} with ${sessions}, each after typing)`;
}

type Session = {
  /** Everything received so far, as text. */
  received(): string;
  /** Writes a key; resolves with [first bytes ms, frame ms] once the output is quiet. */
  key(data: string): Promise<[number, number]>;
  /** Writes a key and waits for nothing. */
  press(data: string): void;
  /** Resolves when the output contains `text` and then stays quiet. */
  until(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves once nothing arrived for `ms` (everything the last action started is drawn). */
  settled(ms: number): Promise<void>;
  close(): void;
};

/** A way to a session's terminal: bytes in, bytes out. */
type Transport = {
  write(data: string): void;
  onData(listener: (chunk: Buffer) => void): void;
  close(): void;
};

/** Times keys and waits for text over a transport. */
function sessionOver(username: string, transport: Transport): Session {
  let text = "";
  let lastByteAt = 0;
  let onBytes: (() => void) | undefined;
  transport.onData((chunk) => {
    text += chunk.toString("utf8");
    if (text.length > 200_000) text = text.slice(-100_000);
    lastByteAt = performance.now();
    onBytes?.();
  });
  /** Waits until no bytes arrived for QUIET_MS; resolves with the last byte's time. */
  const quiet = (ms = QUIET_MS) =>
    new Promise<number>((done) => {
      const check = () => {
        const idle = performance.now() - lastByteAt;
        if (idle >= ms) done(lastByteAt);
        else setTimeout(check, ms - idle + 1);
      };
      check();
    });
  return {
    received: () => text,
    key: (data) =>
      new Promise((done, fail) => {
        const sentAt = performance.now();
        const timer = setTimeout(
          () =>
            fail(
              new Error(
                `${username}: no frame for ${JSON.stringify(data)}: ${JSON.stringify(text.slice(-1500))}`,
              ),
            ),
          keyTimeoutMs,
        );
        onBytes = () => {
          onBytes = undefined;
          const first = performance.now() - sentAt;
          void quiet().then((last) => {
            clearTimeout(timer);
            done([first, last - sentAt]);
          });
        };
        transport.write(data);
      }),
    press: (data) => transport.write(data),
    async until(wanted, timeoutMs = 30_000) {
      const deadline = performance.now() + timeoutMs;
      while (!text.includes(wanted)) {
        if (performance.now() > deadline) {
          throw new Error(
            `${username}: no "${wanted}" on screen: ${JSON.stringify(text.slice(-3000))}`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      await quiet();
    },
    settled: async (ms) => {
      await quiet(ms);
    },
    close: () => transport.close(),
  };
}

/** A 120x40 shell over ssh2 in this process (JavaScript SSH, AES-GCM through node:crypto). */
function ssh2Shell(port: number, username: string, privateKey: string) {
  return new Promise<{ client: ssh2.Client; stream: ssh2.ClientChannel }>((resolve, reject) => {
    const client = new ssh2.Client();
    client.on("error", reject);
    client.on("ready", () => {
      // As OpenSSH does for interactive sessions: a key must not wait for an ACK.
      client.setNoDelay(true);
      client.shell({ term: "xterm-256color", cols: 120, rows: 40 }, (error, stream) => {
        if (error) reject(error);
        else resolve({ client, stream });
      });
    });
    client.connect({ host: "127.0.0.1", port, username, privateKey, readyTimeout: 30_000 });
  });
}

/** An ssh2 client in this process, as a Session. */
async function connectSsh2(port: number, username: string, keys: ClientKeys): Promise<Session> {
  const { client, stream } = await ssh2Shell(port, username, keys.privateKey);
  return sessionOver(username, {
    write: (data) => {
      stream.write(data);
    },
    onData: (listener) => {
      stream.on("data", listener);
      stream.stderr.on("data", listener);
    },
    close: () => client.end(),
  });
}

/**
 * The system's OpenSSH client, as people connect, in a 120x40 pseudo-terminal of its own
 * (util-linux `script`, as the client benchmark runs the local client): its C crypto
 * (chacha20-poly1305 by default) on this side, and the same pty hop as the local client.
 */
async function connectOpenSsh(port: number, username: string, keys: ClientKeys): Promise<Session> {
  const ssh = [
    "ssh -tt -q",
    `-i ${keys.keyFile}`,
    "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes",
    `-p ${port} ${username}@127.0.0.1`,
  ].join(" ");
  const child = spawn("script", ["-qfec", `stty cols 120 rows 40; exec ${ssh}`, "/dev/null"], {
    env: { ...process.env, TERM: "xterm-256color" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin!.on("error", () => {});
  child.stderr!.resume();
  return sessionOver(username, {
    write: (data) => {
      child.stdin!.write(data);
    },
    onData: (listener) => child.stdout!.on("data", listener),
    close: () => {
      child.kill("SIGTERM");
    },
  });
}

type ClientKeys = { privateKey: string; keyFile: string };
type ClientKind = "ssh2" | "openssh";
const CONNECT: Record<ClientKind, typeof connectSsh2> = {
  ssh2: connectSsh2,
  openssh: connectOpenSsh,
};

function hasOpenSsh(): boolean {
  try {
    execFileSync("ssh", ["-V"], { stdio: "ignore" });
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type Row = {
  sessions: number;
  paceMs: number;
  client: ClientKind;
  keys: number;
  first: [number, number];
  frame: [number, number, number];
  rss: number;
  connectMs: number;
  /** The server's CPU time (all its threads) while the keys were typed, per key. */
  cpuPerKey: number;
};

async function run(
  server: Server,
  count: number,
  keys: ClientKeys,
  paceMs: number,
  client: ClientKind,
): Promise<Row> {
  const started = performance.now();
  const sessions = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      CONNECT[client](server.port, USERS[i % USERS.length]!, keys),
    ),
  );
  // Every session on screen with its list, then its first conversation open.
  await Promise.all(sessions.map((s) => s.until("online")));
  const connectMs = performance.now() - started;
  await Promise.all(sessions.map((s) => openConversation(s, 3000)));
  // Typing starts once every conversation is drawn with its messages: what is measured is
  // keys among sessions that are typing, not keys queued behind 20 conversations opening.
  await Promise.all(sessions.map((s) => s.settled(SETTLE_MS)));
  const cpuBefore = processCpuMs(server.child.pid!);
  const firsts: number[] = [];
  const frames: number[] = [];
  await Promise.all(
    sessions.map(async (s) => {
      for (const ch of KEYS) {
        const [first, frame] = await s.key(ch);
        firsts.push(first);
        frames.push(frame);
        if (paceMs > 0) await new Promise((r) => setTimeout(r, paceMs * (0.5 + Math.random())));
      }
    }),
  );
  const cpu = processCpuMs(server.child.pid!) - cpuBefore;
  const rss = rssMiB(server.child.pid!);
  for (const s of sessions) s.close();
  firsts.sort((a, b) => a - b);
  frames.sort((a, b) => a - b);
  return {
    sessions: count,
    paceMs,
    client,
    keys: firsts.length,
    first: [percentile(firsts, 50), percentile(firsts, 99)],
    frame: [percentile(frames, 50), percentile(frames, 90), percentile(frames, 99)],
    rss,
    cpuPerKey: cpu / firsts.length,
    connectMs,
  };
}

async function liveZero(server: Server): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const last = server.log.findLast((l) => / live sessions?$/.test(l));
    if (last?.endsWith("; 0 live sessions")) return;
    if (Date.now() > deadline)
      throw new Error(`sessions were not freed:\n${server.log.join("\n")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Each 20-session row against one local client's keystroke-to-frame, from the same run:
 * the same action (a key typed into the composer, the strict comparison), and the client
 * benchmark's keystroke-to-frame table (k in a 10,000-message history).
 */
function verdicts(rows: Row[], client: ClientFigures): string[] {
  const { typing, scrolling } = client;
  if (!typing) return [];
  const lines = [
    "",
    "Aim: 20 sessions at once keep keystroke-to-frame under the client benchmark's figures, measured in this run: one local client in a pty, no SSH.",
    "",
  ];
  const against = (r: Row, what: string, figure: { p50: number; p90: number }) => {
    const verdict = (mine: number, theirs: number) =>
      `${mine.toFixed(2)} vs ${theirs.toFixed(2)} ms: ${mine <= theirs ? "met" : `**missed** by ${(mine - theirs).toFixed(2)} ms`}`;
    return `against ${what}: p50 ${verdict(r.frame[0], figure.p50)}; p90 ${verdict(r.frame[1], figure.p90)}`;
  };
  for (const r of rows.filter((row) => row.sessions > 1)) {
    const pace = r.paceMs === 0 ? "flat out" : `at ~${Math.round(1000 / r.paceMs)} keys/s`;
    lines.push(`- ${r.sessions} ${r.client} sessions ${pace}:`);
    lines.push(`  - ${against(r, "a local client typing into the composer", typing)}.`);
    if (scrolling) {
      lines.push(`  - ${against(r, "the local client's k in 10,000 messages", scrolling)}.`);
    }
  }
  return lines;
}

export async function benchSsh(client: ClientFigures = {}): Promise<string> {
  const { private: privateKey } = newHostKey();
  const server = await startServer();
  const keyFile = join(server.dir, "id_ed25519");
  writeFileSync(keyFile, privateKey, { mode: 0o600 });
  const keys: ClientKeys = { privateKey, keyFile };
  const openssh = hasOpenSsh();
  const skipped: string[] = [];
  try {
    const idle = await settledRssMiB(server.child.pid!, SETTLED);
    const rows: Row[] = [];
    for (const [count, paceMs, kind] of ROWS) {
      if (kind === "openssh" && !openssh) {
        skipped.push(`${count}:${paceMs}:${kind}`);
        continue;
      }
      rows.push(await run(server, count, keys, paceMs, kind));
      await liveZero(server);
    }
    // Give the collector a moment, then see what the sessions left behind; again once
    // the kept-alive connections to the API have timed out (5 s); and once the pool has
    // replaced the workers left without sessions (IDLE_RETIRE_MS), as it does to give
    // back what a worker grew.
    await new Promise((r) => setTimeout(r, 1000));
    const after = rssMiB(server.child.pid!);
    await new Promise((r) => setTimeout(r, 5000));
    const later = rssMiB(server.child.pid!);
    await new Promise((r) => setTimeout(r, IDLE_RETIRE_MS + 5000 - 6000));
    const retired = await settledRssMiB(server.child.pid!, SETTLED);
    const ms = (n: number) => n.toFixed(1);
    const over = (rss: number) => `${((rss / idle - 1) * 100).toFixed(0)} % over`;
    return [
      `SSH benchmark: node ${process.version}, ${availableParallelism()} cores, loopback; parley ssh in a child process (default worker threads), 120x40 terminals, demo users in turn, ${KEYS.length} keys per session typed into an open conversation's composer, each after the previous frame ("flat out") or also after a pause like a person's; a frame ends after ${QUIET_MS} ms without output. Clients: "openssh" is the system's \`ssh -tt\` in a pty of its own (util-linux \`script\`, the same hop as the local client in the client benchmark), "ssh2" is ssh2's JavaScript client in the bench process. All on screen: from connecting to every session's first full screen. Server CPU ms/key: the server process's CPU time (all its threads, polls included) while the keys were typed, per key; load on the machine stretches latency much more than it.`,
      "",
      "| sessions | clients | typing | keys | first bytes p50 ms | p99 ms | whole frame p50 ms | p90 ms | p99 ms | all on screen ms | server CPU ms/key | server RSS MiB |",
      "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        (r) =>
          `| ${r.sessions} | ${r.client} | ${r.paceMs === 0 ? "flat out" : `~${Math.round(1000 / r.paceMs)} keys/s`} | ${r.keys} | ${ms(r.first[0])} | ${ms(r.first[1])} | ${ms(r.frame[0])} | ${ms(r.frame[1])} | ${ms(r.frame[2])} | ${Math.round(r.connectMs)} | ${r.cpuPerKey.toFixed(2)} | ${Math.round(r.rss)} |`,
      ),
      ...(skipped.length > 0
        ? ["", `Skipped (no \`ssh\` or \`script\` here): ${skipped.join(", ")}.`]
        : []),
      "",
      `Server RSS: ${Math.round(idle)} MiB before any session (settled), ${Math.round(after)} MiB 1 s after all of them left (live sessions back to 0, ${over(after)}), ${Math.round(later)} MiB 6 s after (${over(later)}), ${Math.round(retired)} MiB once the workers left without sessions for ${IDLE_RETIRE_MS / 1000} s were replaced (${over(retired)}; aim within 20 %: ${retired <= idle * 1.2 ? "met" : "**missed**"}). ${perAddedSession(rows)}.`,
      ...verdicts(rows, client),
    ].join("\n");
  } finally {
    await server.stop();
  }
}

const UNDER_LOAD = { sessions: 50, silent: 500, pausedSize: 2000, windowChanges: 50 };

/**
 * `parley ssh` as it is when facing the internet: 50 people signed in and typing while
 * 500 connections sit silent (from 25 loopback addresses, 20 each) and one session with
 * a 2000x2000 terminal has stopped reading and keeps changing its window size. The caps
 * are raised so that all of it gets in (`PARLEY_BENCH_LIMITS`: the flags, empty for a
 * build without them, such as main's before the limits).
 */
export async function benchSshUnderLoad(): Promise<string> {
  const limits = (
    process.env.BENCH_SSH_LIMITS ??
    "--max-connections 1000 --max-connections-per-address 100 --max-sessions-per-user 16 --max-sessions 64"
  )
    .split(" ")
    .filter(Boolean);
  const { private: privateKey } = newHostKey();
  keyTimeoutMs = 60_000;
  const server = await startServer(limits);
  const pid = server.child.pid!;
  let peak = rssMiB(pid);
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // the server is gone
    }
  }, 250);
  const sockets: Socket[] = [];
  let closedByServer = 0;
  const clients: ssh2.Client[] = [];
  try {
    const idle = rssMiB(pid);
    // The silent ones: TCP connections that never say a word.
    for (let i = 0; i < UNDER_LOAD.silent; i++) {
      const localAddress = `127.0.0.${2 + Math.floor(i / 20)}`;
      const socket = createConnection({ host: "127.0.0.1", port: server.port, localAddress });
      socket.on("error", () => {});
      socket.once("close", () => {
        closedByServer++;
      });
      // Reading, so that the server's end of it is seen.
      socket.resume();
      sockets.push(socket);
    }
    // The stuck one: a huge terminal that stops reading and keeps resizing.
    const stuck = new ssh2.Client();
    clients.push(stuck);
    stuck.on("error", () => {});
    await new Promise<void>((ready) => {
      stuck.once("ready", () => ready());
      stuck.connect({ host: "127.0.0.1", port: server.port, username: "frank", privateKey });
    });
    await new Promise<void>((opened) =>
      stuck.shell(
        { term: "xterm-256color", cols: UNDER_LOAD.pausedSize, rows: UNDER_LOAD.pausedSize },
        (error, stream) => {
          if (error) return opened();
          stream.once("data", () => {
            stream.pause();
            for (let i = 0; i < UNDER_LOAD.windowChanges; i++) {
              stream.setWindow(UNDER_LOAD.pausedSize - (i % 2), UNDER_LOAD.pausedSize, 0, 0);
            }
            opened();
          });
          stream.on("close", () => opened());
        },
      ),
    );
    // The people: connect, first screen, open a conversation, type.
    const firstFrames: number[] = [];
    const sessions = await Promise.all(
      Array.from({ length: UNDER_LOAD.sessions }, async (_, i) => {
        const started = performance.now();
        const s = await connectSsh2(server.port, USERS[i % USERS.length]!, {
          privateKey,
          keyFile: "",
        });
        await s.until("online", 120_000);
        firstFrames.push(performance.now() - started);
        return s;
      }),
    );
    await Promise.all(sessions.map((s) => openConversation(s)));
    await Promise.all(sessions.map((s) => s.settled(SETTLE_MS)));
    const echoes: number[] = [];
    await Promise.all(
      sessions.map(async (s) => {
        for (const ch of KEYS.slice(0, 20)) {
          const [first] = await s.key(ch);
          echoes.push(first);
          await new Promise((r) => setTimeout(r, PACE_MS * (0.5 + Math.random())));
        }
      }),
    );
    const end = rssMiB(pid);
    const stillOpen = UNDER_LOAD.silent - closedByServer;
    for (const s of sessions) s.close();
    firstFrames.sort((a, b) => a - b);
    echoes.sort((a, b) => a - b);
    const ms = (n: number) => n.toFixed(1);
    return [
      `Under load: ${UNDER_LOAD.sessions} ssh2 sessions (120x40, demo users in turn) each typing 20 keys at ~5 keys/s, while ${UNDER_LOAD.silent} TCP connections stay silent (25 loopback addresses) and one ${UNDER_LOAD.pausedSize}x${UNDER_LOAD.pausedSize} session stopped reading after its first bytes and sent ${UNDER_LOAD.windowChanges} window changes. parley ssh: ${CLI}${limits.length > 0 ? `, ${limits.join(" ")}` : ""}.`,
      "",
      "| first frame p50 ms | p99 ms | key echo p50 ms | p99 ms | keys | server RSS idle MiB | peak MiB | at the end MiB | silent connections still open at the end |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      `| ${ms(percentile(firstFrames, 50))} | ${ms(percentile(firstFrames, 99))} | ${ms(percentile(echoes, 50))} | ${ms(percentile(echoes, 99))} | ${echoes.length} | ${Math.round(idle)} | ${Math.round(peak)} | ${Math.round(end)} | ${stillOpen} of ${UNDER_LOAD.silent} |`,
    ].join("\n");
  } finally {
    clearInterval(sampler);
    for (const socket of sockets) socket.destroy();
    for (const client of clients) client.end();
    await server.stop();
  }
}

const ATTACK = {
  /** Sessions typing beside the victim, all on the one worker thread. */
  typing: 10,
  pasteBytes: 1024 * 1024,
  pasteChunk: 16 * 1024,
  windowChanges: 3000,
  stormMs: 3000,
  /** Calm, then attacked, this many times: the machine's noise falls on both alike. */
  rounds: 5,
};

/** One session's shell over ssh2, with its stream, for what a person's client never sends. */
async function attackerShell(port: number, privateKey: string) {
  const { client, stream } = await ssh2Shell(port, "frank", privateKey);
  let text = "";
  let bytes = 0;
  stream.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    text += chunk.toString("utf8");
    if (text.length > 200_000) text = text.slice(-100_000);
  });
  stream.stderr.resume();
  return { client, stream, received: () => text, bytes: () => bytes };
}

/** Writes `bytes` of printable keys (no newline: nothing is sent), as fast as the channel takes them. */
async function pasteFlood(stream: ssh2.ClientChannel, bytes: number, chunk: number): Promise<void> {
  const line = "lorem ipsum dolor sit amet, consectetur adipiscing elit ";
  const block = line.repeat(Math.ceil(chunk / line.length)).slice(0, chunk);
  for (let sent = 0; sent < bytes; sent += chunk) {
    if (!stream.write(block.slice(0, Math.min(chunk, bytes - sent)))) {
      await new Promise((r) => stream.once("drain", r));
    }
  }
}

/** `count` window-changes spread over `ms`, between 120x40 and 121x41, ending on 120x40. */
async function resizeStorm(stream: ssh2.ClientChannel, count: number, ms: number): Promise<void> {
  const started = performance.now();
  let sent = 0;
  while (sent < count) {
    const due = Math.min(count, Math.ceil(((performance.now() - started) / ms) * count));
    for (; sent < due; sent++) {
      const last = sent === count - 1;
      const odd = !last && sent % 2 === 0;
      stream.setWindow(odd ? 41 : 40, odd ? 121 : 120, 0, 0);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Opens the session's first conversation (Enter; a list still settling can drop it). */
async function openConversation(s: Session, timeoutMs = 5000): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    s.press("\r");
    try {
      await s.until("Enter send", timeoutMs);
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

/**
 * One session attacks its worker thread: a 1 MiB paste sent as plain keys (no bracketed
 * paste) as fast as the channel takes it, and a storm of window-changes, while a victim
 * on the same thread (`--threads 1`) types among `ATTACK.typing` others. The victim's key
 * echo with and without the attack, and the server's memory around it. The bounds under
 * test: src/ssh/input-limit.ts (keys past a burst are dropped, and the session told) and
 * src/ssh/coalesce.ts (window-changes, at most one applied every RESIZE_EVERY_MS).
 */
export async function benchSshAttack(): Promise<string> {
  const loadAtStart = loadavg()[0]!;
  const { private: privateKey } = newHostKey();
  keyTimeoutMs = 60_000;
  const server = await startServer(["--threads", "1", "--max-sessions-per-user", "16"]);
  const pid = server.child.pid!;
  const clients: ssh2.Client[] = [];
  let peak = 0;
  let sampler: NodeJS.Timeout | undefined;
  try {
    const keys = { privateKey, keyFile: "" };
    const others = await Promise.all(
      Array.from({ length: ATTACK.typing }, (_, i) =>
        connectSsh2(server.port, USERS[i % (USERS.length - 1)]!, keys),
      ),
    );
    const victim = await connectSsh2(server.port, "alice", keys);
    const attacker = await attackerShell(server.port, privateKey);
    clients.push(attacker.client);
    const everyone = [...others, victim];
    await Promise.all(everyone.map((s) => s.until("online", 120_000)));
    for (const deadline = performance.now() + 120_000; !attacker.received().includes("online"); ) {
      if (performance.now() > deadline) throw new Error("the attacker's first screen never came");
      await new Promise((r) => setTimeout(r, 20));
    }
    await Promise.all(everyone.map((s) => openConversation(s)));
    for (let attempt = 1; !attacker.received().includes("Enter send"); attempt++) {
      if (attempt > 5) throw new Error("the attacker's conversation did not open");
      attacker.stream.write("\r");
      await new Promise((r) => setTimeout(r, 1000));
    }
    await Promise.all(everyone.map((s) => s.settled(SETTLE_MS)));
    // The others type all along, like people: ~5 keys a second each, a key after its echo.
    let typing = true;
    const typed = Promise.all(
      others.map(async (s) => {
        for (let i = 0; typing; i++) {
          await s.key(KEYS[i % KEYS.length]!);
          await new Promise((r) => setTimeout(r, PACE_MS * (0.5 + Math.random())));
        }
      }),
    );
    /** The victim types flat out (a key once the previous one's frame is in) until `until`. */
    const victimTypes = async (until: Promise<unknown>, into: number[]) => {
      let over = false;
      void until.then(() => {
        over = true;
      });
      for (let i = 0; !over; i++) {
        // Backspace every other key: the composer stays short.
        const [first] = await victim.key(i % 2 === 0 ? KEYS[(i / 2) % KEYS.length]! : "\x7f");
        into.push(first);
      }
    };
    const calm: number[] = [];
    const attacked: number[] = [];
    const before = await settledRssMiB(pid, SETTLED);
    peak = before;
    sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssMiB(pid));
      } catch {
        // the server is gone
      }
    }, 100);
    let told: boolean | undefined;
    /** What the attacker's screen took in each attack: one full redraw per window-change would be MiBs. */
    const drawn: number[] = [];
    const pasteMs: number[] = [];
    for (let round = 0; round < ATTACK.rounds; round++) {
      await victimTypes(new Promise((r) => setTimeout(r, ATTACK.stormMs)), calm);
      const started = performance.now();
      const bytesBefore = attacker.bytes();
      const attack = Promise.all([
        pasteFlood(attacker.stream, ATTACK.pasteBytes, ATTACK.pasteChunk).then(() => {
          pasteMs.push(performance.now() - started);
        }),
        resizeStorm(attacker.stream, ATTACK.windowChanges, ATTACK.stormMs),
      ]);
      await victimTypes(attack, attacked);
      drawn.push(attacker.bytes() - bytesBefore);
      // Told: the status line says the input was cut (it stays up for the later rounds).
      const deadline = performance.now() + 10_000;
      while (told === undefined) {
        if (attacker.received().includes("Input cut")) told = true;
        else if (performance.now() > deadline) told = false;
        else await new Promise((r) => setTimeout(r, 50));
      }
      // Past the input limit's quiet time, so the next round's paste starts afresh.
      await new Promise((r) => setTimeout(r, 1000));
    }
    typing = false;
    await typed;
    clearInterval(sampler);
    const after = await settledRssMiB(pid, SETTLED);
    for (const s of everyone) s.close();
    calm.sort((a, b) => a - b);
    attacked.sort((a, b) => a - b);
    const ms = (n: number) => n.toFixed(1);
    const row = (what: string, echoes: number[]) =>
      `| ${what} | ${echoes.length} | ${ms(percentile(echoes, 50))} | ${ms(percentile(echoes, 90))} | ${ms(percentile(echoes, 99))} |`;
    return [
      `One attacker among ${ATTACK.typing + 2} ssh2 sessions (120x40), all on one worker thread (\`--threads 1\`): ${ATTACK.typing} type ~5 keys/s all along; the victim types flat out (a key once the previous one's frame is in, into its open conversation's composer) for ${ATTACK.stormMs / 1000} s with nobody attacking, then while the attacker, in one session with its conversation open, sends ${ATTACK.pasteBytes / 1024} KiB of printable keys (no newline) without bracketed paste as fast as its channel takes them (ssh2 took them in ${pasteMs.map((n) => Math.round(n)).join(", ")} ms) and ${ATTACK.windowChanges} window-changes over ${ATTACK.stormMs / 1000} s; ${ATTACK.rounds} rounds of both, the figures pooled. Key echo: from writing a key to the first bytes back. The attacker's status line said its input was cut: ${told ? "yes" : "**no**"}; its own screen took ${drawn.map((n) => `${Math.round(n / 1024)}`).join(", ")} KiB during each attack (window-changes coalesced: at most one applied every ${RESIZE_EVERY_MS} ms).`,
      "",
      "| victim | keys | key echo p50 ms | p90 ms | p99 ms |",
      "|---|---:|---:|---:|---:|",
      row("no attack", calm),
      row("under attack", attacked),
      "",
      `Server RSS: ${Math.round(before)} MiB before the attack (settled, ${ATTACK.typing + 2} sessions in), ${Math.round(peak)} MiB at its peak (sampled every 100 ms), ${Math.round(after)} MiB after the last round (settled). Load average (1 min) on the machine: ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end, on ${availableParallelism()} cores.`,
    ].join("\n");
  } finally {
    clearInterval(sampler);
    for (const client of clients) client.end();
    await server.stop();
  }
}

if (import.meta.main) {
  if (process.argv.includes("--under-load")) {
    process.stdout.write(`${await benchSshUnderLoad()}\n`);
  } else if (process.argv.includes("--attack")) {
    process.stdout.write(`${await benchSshAttack()}\n`);
  } else {
    process.stdout.write(`${await benchSsh()}\n`);
  }
}
