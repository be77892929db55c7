// The real, built client (dist/cli.js) in a real pseudo-terminal: start-up time, bytes
// written per keystroke, and keystroke-to-frame latency and memory against history length.
//   npm run build && node test/bench/client.ts
// util-linux `script` gives the pty: keystrokes go to its stdin, the terminal's output
// comes back on its stdout unaltered, so byte counts are what a terminal would receive and
// timings carry no screen-scraping delay (tmux's capture would). The output is also fed
// to @xterm/headless so the bench can read the screen to navigate.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import unicode11 from "@xterm/addon-unicode11";
import xterm from "@xterm/headless";
import { freePort } from "../free-port.ts";
import { commandLine, descendants } from "../processes.ts";

const SELF = fileURLToPath(import.meta.url);
const ROOT = resolve(import.meta.dirname, "../..");
// Diagnostics only (they change what is measured): extra node flags for the client, e.g.
// BENCH_CLIENT_NODE_FLAGS=--trace-gc; BENCH_CLIENT_ONLY=startup|typing|history.
// BENCH_SERVER_STDERR=FILE keeps the server's log. BENCH_CLIENT_COMMAND=dist/sea/parley measures the single executable (npm run dist) instead.
export const CLIENT =
  process.env.BENCH_CLIENT_COMMAND ??
  `node ${process.env.BENCH_CLIENT_NODE_FLAGS ?? ""} ${JSON.stringify(join(ROOT, "dist/cli.js"))}`;
const ONLY = process.env.BENCH_CLIENT_ONLY;
const VERBOSE = process.env.BENCH_CLIENT_VERBOSE === "1";
const COLUMNS = 120;
const ROWS = 40;

const STARTUP_RUNS = 9;
/** Issue 23: a usual start within 2.5x `node -e 0`, one without the kept cache within 5x. */
const AIM_USUAL = 2.5;
const AIM_UNCACHED = 5;
const SEEDING_RUNS = 3;
const TYPED = "the quick brown fox jumps over a lazy dog"; // 41 printable characters
/** Issue 23: the character, and where needed one cursor move. */
const KEY_AIM_BYTES = 32;
const KEY_QUIET_MS = 50;
const PRESSES = 60;
const HISTORY_SIZES = [100, 10_000];
const POST_CONCURRENCY = 16;
const IDLE_MS = 8000;

const LOADING_OLDER = "loading older…";
export const KEY = { enter: "\r", escape: "\x1b", ctrlC: "\x03", ctrlU: "\x15" } as const;

const log = (line: string) => process.stderr.write(`bench client: ${line}\n`);

/** Keystroke-to-frame figures of one local client, for `parley ssh`'s bench to compare with. */
export type ClientFigures = {
  /** A printable key in the composer: to the frame's last byte. */
  typing?: { p50: number; p90: number };
  /** k in a 10,000-message conversation: to the frame's last byte. */
  scrolling?: { p50: number; p90: number };
};
export const clientFigures: ClientFigures = {};

// ---- statistics ----

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}
export function median(values: number[]): number {
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
/** Nearest rank. */
export function percentile(values: number[], q: number): number {
  const s = sorted(values);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}
export const ms = (n: number) => n.toFixed(1);
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

// ---- processes ----

/** Everything this bench started that may still run: killed on every way out. */
const live = new Set<number>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process group and every descendant (a pty's child runs in a session of its own). */
function killTree(pid: number, signal: NodeJS.Signals): void {
  const tree = descendants(pid);
  for (const target of [-pid, pid, ...tree]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

export async function stopTree(pid: number, graceMs = 1500): Promise<void> {
  const tree = [pid, ...descendants(pid)];
  killTree(pid, "SIGTERM");
  const until = performance.now() + graceMs;
  while (tree.some(alive) && performance.now() < until) await sleep(20);
  for (const p of tree) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // gone
    }
  }
  live.delete(pid);
}

/** Temp folders not removed yet: removed on every way out too. */
const homes = new Set<string>();

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
  homes.delete(home);
}

function killAllNow(): void {
  for (const pid of live) killTree(pid, "SIGKILL");
  live.clear();
  for (const home of homes) removeHome(home);
}

export const sleep = (n: number) => new Promise<void>((r) => setTimeout(r, n));

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

export function freshHome(): { home: string; env: Record<string, string> } {
  const home = mkdtempSync(join(tmpdir(), "parley-bench-"));
  homes.add(home);
  return {
    home,
    env: {
      TERM: "xterm-256color",
      HOME: home,
      XDG_CONFIG_HOME: join(home, "config"),
      XDG_DATA_HOME: join(home, "data"),
      XDG_STATE_HOME: join(home, "state"),
      XDG_CACHE_HOME: join(home, "cache"),
      PATH: process.env.PATH ?? "",
      LANG: "C.UTF-8",
      SHELL: "/bin/sh",
    },
  };
}

/**
 * The built client in a pty as alice, in a fresh home, against `baseUrl`: the server, or a
 * relay or proxy in front of it.
 */
export function aliceClient(baseUrl: string, tokens: Record<string, string>) {
  const { home, env } = freshHome();
  const pty = new Pty(CLIENT, { ...env, PARLEY_BASE_URL: baseUrl, PARLEY_TOKEN: tokens.alice! });
  return { home, pty };
}

// ---- the pseudo-terminal ----

type Waiter = { check: () => boolean; resolve: () => void };

export class Pty {
  readonly child: ChildProcess;
  readonly spawnedAt: number;
  readonly exited: Promise<number | null>;
  readonly term: xterm.Terminal;
  bytes = 0;
  lastDataAt = 0;
  /** The raw output's last few KB, as latin1 (ASCII needles only). */
  tail = "";
  /** Arrival of each chunk: [time, bytes after it]. Cleared by `mark`. */
  chunks: [number, number][] = [];
  private waiters = new Set<Waiter>();
  private disposed = false;
  /** With BENCH_CLIENT_NODE_FLAGS=--trace-gc and BENCH_CLIENT_VERBOSE=1. */
  lastGc = "";

  constructor(command: string, env: Record<string, string>) {
    this.term = new xterm.Terminal({
      cols: COLUMNS,
      rows: ROWS,
      allowProposedApi: true,
      scrollback: 0,
    });
    this.term.loadAddon(new unicode11.Unicode11Addon());
    this.term.unicode.activeVersion = "11";
    this.spawnedAt = performance.now();
    this.child = spawn(
      "script",
      ["-qfec", `stty cols ${COLUMNS} rows ${ROWS}; exec ${command}`, "/dev/null"],
      { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"], detached: true },
    );
    live.add(this.child.pid!);
    this.exited = exitOf(this.child);
    this.child.stdin!.on("error", () => {});
    // Answer as a terminal would (DA1 for parley's start-up query, cursor reports): a pty
    // nobody answers makes parley wait out its 200 ms query timeout, which no terminal does.
    this.term.onData((answer) => {
      if (this.child.stdin!.writable) this.child.stdin!.write(answer);
    });
    this.child.stderr!.resume();
    this.child.stdout!.on("data", (chunk: Buffer) => {
      const now = performance.now();
      this.bytes += chunk.length;
      this.lastDataAt = now;
      this.chunks.push([now, this.bytes]);
      this.tail = (this.tail + chunk.toString("latin1")).slice(-8192);
      if (VERBOSE) {
        for (const m of chunk.toString("latin1").matchAll(/Mark-Compact[^\r\n]*?MB/g)) {
          this.lastGc = m[0];
        }
      }
      this.notify();
      this.term.write(chunk, () => this.notify());
    });
    void this.exited.then(() => {
      live.delete(this.child.pid!);
      this.notify();
    });
  }

  private notify(): void {
    for (const waiter of this.waiters) {
      if (waiter.check()) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  write(data: string): number {
    const at = performance.now();
    this.child.stdin!.write(data);
    return at;
  }

  screen(): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) {
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
    }
    return lines.join("\n");
  }

  /** Resolves once `check` holds, checked on each chunk as it arrives and once parsed. */
  until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${this.screen()}`,
          ),
        );
      }, timeoutMs);
      const waiter: Waiter = {
        check: () => {
          if (this.child.exitCode !== null || this.child.signalCode !== null) {
            clearTimeout(timer);
            reject(new Error(`the client exited while waiting for ${what}`));
            return true;
          }
          return check();
        },
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Parsed output shows `text`. */
  shows(text: string, timeoutMs?: number): Promise<void> {
    return this.until(() => this.screen().includes(text), `"${text}" on screen`, timeoutMs);
  }

  /** No output for `quietMs` (counted from now at the earliest). */
  async quiet(quietMs: number, timeoutMs = 15_000): Promise<void> {
    const from = performance.now();
    const give = from + timeoutMs;
    for (;;) {
      const now = performance.now();
      const idle = now - Math.max(from, this.lastDataAt);
      if (idle >= quietMs) return;
      if (now > give) throw new Error(`output never went quiet for ${quietMs} ms`);
      await sleep(quietMs - idle + 1);
    }
  }

  /**
   * Writes `key`, waits for the first byte back (unless none comes within `firstTimeoutMs`)
   * and then for `quietMs` of silence. Times are from the write.
   */
  async press(
    key: string,
    quietMs = KEY_QUIET_MS,
    firstTimeoutMs = 2000,
  ): Promise<{ first: number | undefined; last: number | undefined; bytes: number }> {
    const before = this.bytes;
    this.chunks = [];
    const at = this.write(key);
    try {
      await this.until(() => this.bytes > before, "output after a key", firstTimeoutMs);
    } catch {
      return { first: undefined, last: undefined, bytes: 0 };
    }
    await this.quiet(quietMs);
    const first = this.chunks[0]![0] - at;
    const last = this.chunks.at(-1)![0] - at;
    return { first, last, bytes: this.bytes - before };
  }

  /** The client's own node process (the pty's `exec`ed shell). */
  nodePid(): number | undefined {
    return descendants(this.child.pid!).find(
      (pid) => basename(commandLine(pid)[0] ?? "") === "node",
    );
  }

  /** In MB (10^6 bytes), as the aims are. */
  rssMB(): { rss: number; hwm: number } {
    const pid = this.nodePid();
    if (pid === undefined) throw new Error("the client's node process is gone");
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { rss: (kb("VmRSS") * 1024) / 1e6, hwm: (kb("VmHWM") * 1024) / 1e6 };
  }

  /** CPU time the client's node process has used so far (processCpuMs). */
  cpuMs(): number {
    const pid = this.nodePid();
    if (pid === undefined) throw new Error("the client's node process is gone");
    return processCpuMs(pid);
  }

  /** Resizes the pty from its slave side: the kernel sends SIGWINCH to the client. */
  resize(columns: number, rows: number): void {
    const pid = this.nodePid();
    if (pid === undefined) throw new Error("the client's node process is gone");
    const tty = readlinkSync(`/proc/${pid}/fd/0`);
    execFileSync("stty", ["-F", tty, "cols", String(columns), "rows", String(rows)]);
  }

  /** q (or Ctrl+C) and the wait for the exit; force after a while. */
  async quit(key: string = KEY.ctrlC): Promise<void> {
    this.write(key);
    const done = await Promise.race([this.exited.then(() => true), sleep(3000).then(() => false)]);
    if (!done) log("the client did not exit on its own; killing it");
    await this.kill();
  }

  async kill(): Promise<void> {
    await stopTree(this.child.pid!);
    if (!this.disposed) this.term.dispose();
    this.disposed = true;
  }
}

// ---- servers ----

type ServerInfo = { url: string; tokens: Record<string, string> };

/** A server in a child process (own group); resolves with its address and tokens. */
async function startServerChild(
  args: string[],
  parse: (lines: string[]) => ServerInfo | undefined,
): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  live.add(child.pid!);
  if (process.env.BENCH_SERVER_STDERR) {
    child.stderr!.pipe(createWriteStream(process.env.BENCH_SERVER_STDERR));
  } else child.stderr!.resume();
  const lines: string[] = [];
  const timer = setTimeout(() => killTree(child.pid!, "SIGKILL"), 20_000);
  try {
    for await (const line of createInterface({ input: child.stdout! })) {
      lines.push(line);
      const info = parse(lines);
      if (info) return { child, info };
    }
  } finally {
    clearTimeout(timer);
  }
  throw new Error(`the server (${args.join(" ")}) did not start:\n${lines.join("\n")}`);
}

/** `node src/server/main.ts … --demo`: its banner gives the address and alice's token. */
export function demoServer() {
  return startServerChild(
    ["src/server/main.ts", "--db", ":memory:", "--port", "0", "--demo", "--no-demo-replies"],
    (lines) => {
      const url = lines.find((l) => l.startsWith("export PARLEY_BASE_URL="))?.split("=")[1];
      const tokens: Record<string, string> = {};
      for (const line of lines) {
        const m = /^export PARLEY_TOKEN=(\S+)\s+# (\w+)/.exec(line);
        if (m) tokens[m[2]!] = m[1]!;
      }
      return url && tokens.alice && lines.length >= 7 ? { url, tokens } : undefined;
    },
  );
}

/** An empty server (demo users only) without a rate limit, in a child process. */
export function emptyServer() {
  return startServerChild([SELF, "--serve-empty"], (lines) =>
    lines[0] ? (JSON.parse(lines[0]) as ServerInfo) : undefined,
  );
}

/** In the child: an empty server (demo users only) without a rate limit. */
async function serveEmpty(): Promise<void> {
  const { startServer } = await import("../../src/server/index.ts");
  const server = await startServer({
    port: 0,
    demo: true,
    demoConversations: false,
    rateLimit: false,
  });
  const tokens = Object.fromEntries(server.demoUsers.map((u) => [u.username, u.token]));
  process.stdout.write(`${JSON.stringify({ url: server.url, tokens })}\n`);
  process.once("SIGTERM", () => server.close().then(() => process.exit(0)));
}

async function post(
  info: ServerInfo,
  user: string,
  path: string,
  body: Record<string, string>,
): Promise<{ id: string }> {
  const res = await fetch(`${info.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${info.tokens[user]}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(body).toString(),
  });
  if (!res.ok) throw new Error(`POST ${path} as ${user}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

const WORDS =
  "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua".split(
    " ",
  );

/** Message n: a marker, then 3 to 42 words, so some wrap over several lines. */
function messageText(marker: string, n: number): string {
  const count = 3 + ((n * 37) % 40);
  const words = Array.from({ length: count }, (_, i) => WORDS[(n + i * 7) % WORDS.length]!);
  return `${marker}${String(n).padStart(5, "0")} ${words.join(" ")}`;
}

/**
 * A conversation between alice and `contact` with `size` messages (2 of 5 from the
 * contact). Message 0 is posted alone first, so it is the oldest; the rest 16 at a time.
 */
async function seedConversation(
  info: ServerInfo,
  contact: string,
  marker: string,
  size: number,
): Promise<void> {
  const { id } = await post(info, "alice", "/v1/conversations", { contact_id: `ct_${contact}` });
  const send = (n: number) =>
    post(info, n % 5 < 2 ? contact : "alice", "/v1/messages", {
      conversation_id: id,
      message: messageText(marker, n),
    });
  await send(0);
  let next = 1;
  const worker = async () => {
    while (next < size) await send(next++);
  };
  await Promise.all(Array.from({ length: POST_CONCURRENCY }, worker));
}

// ---- 1. start-up ----

/**
 * CPU time a process has used so far, every thread, in ms (Linux: /proc; elsewhere NaN).
 * Its clock ticks are 10 ms, so only a sum over many keys or a long window says
 * something; the machine's load stretches wall-clock latency far more than the CPU a
 * key costs.
 */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // utime and stime, fields 14 and 15 of proc_pid_stat(5), 12 and 13 after "(comm) ",
    // in clock ticks (USER_HZ, 100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Spawn to exit of `node …args`, plainly or through the same pty wrapper as the client. */
export async function timeToExit(args: string[], env: Record<string, string>, pty: boolean) {
  const t0 = performance.now();
  const child = pty
    ? spawn(
        "script",
        [
          "-qfec",
          `stty cols ${COLUMNS} rows ${ROWS}; exec node ${args.map((a) => JSON.stringify(a)).join(" ")}`,
          "/dev/null",
        ],
        { env, stdio: ["pipe", "ignore", "ignore"], detached: true },
      )
    : spawn("node", args, { env, stdio: "ignore", detached: true });
  live.add(child.pid!);
  const code = await exitOf(child);
  live.delete(child.pid!);
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited with ${code}`);
  return performance.now() - t0;
}

/**
 * Spawn to the first output byte, and to the chunk that completes "#team" (a conversation
 * row), then q.
 */
async function timeToConversations(
  env: Record<string, string>,
): Promise<{ first: number; list: number }> {
  const pty = new Pty(CLIENT, env);
  try {
    await pty.until(() => pty.tail.includes("#team"), "the conversation list", 20_000);
    const list = pty.lastDataAt - pty.spawnedAt;
    const first = pty.chunks[0]![0] - pty.spawnedAt;
    await pty.quiet(200);
    await pty.quit("q");
    return { first, list };
  } catch (error) {
    await pty.kill();
    throw error;
  }
}

async function benchStartup(): Promise<string[]> {
  const used: string[] = [];
  try {
    const bare = freshHome();
    used.push(bare.home);
    const seeding: number[] = [];
    for (let i = 0; i < SEEDING_RUNS; i++) {
      const fresh = freshHome();
      used.push(fresh.home);
      seeding.push((await timeToConversations(fresh.env)).list);
    }
    log(`first-run start-ups: ${seeding.map(ms).join(", ")} ms`);

    // One set of folders, seeded by an untimed first start, for every usual start: the demo
    // database and what the client kept of the last run (its query cache, drawn before the
    // server answers). "No kept cache": the same database, the cache removed before each
    // run, so the first frame waits for the server's answers. The runs of each kind
    // alternate, so a busy moment of the machine hits all of them alike.
    const seeded = freshHome();
    used.push(seeded.home);
    await timeToConversations(seeded.env);
    const floorPty: number[] = [];
    const floorBare: number[] = [];
    const firstByte: number[] = [];
    const usual: number[] = [];
    const uncached: number[] = [];
    for (let i = 0; i < STARTUP_RUNS; i++) {
      floorPty.push(await timeToExit(["-e", "0"], bare.env, true));
      floorBare.push(await timeToExit(["-e", "0"], bare.env, false));
      const run = await timeToConversations(seeded.env);
      firstByte.push(run.first);
      usual.push(run.list);
      rmSync(seeded.env.XDG_CACHE_HOME!, { recursive: true, force: true });
      uncached.push((await timeToConversations(seeded.env)).list);
    }
    log(`usual start-ups: ${usual.map(ms).join(", ")} ms`);
    log(`start-ups without the kept cache: ${uncached.map(ms).join(", ")} ms`);

    const floor = median(floorPty);
    const row = (name: string, runs: number[], aim = "") =>
      `| ${name} | ${runs.length} | ${ms(median(runs))} | ${ms(Math.min(...runs))} | ${ms(Math.max(...runs))} | ${ratio(median(runs), floor)} | ${aim} |`;
    const aim = (runs: number[], within: number) =>
      `≤ ${within}x: ${verdict(median(runs) / floor <= within)}`;
    return [
      "### 1. Start-up: spawn to the first frame listing conversations",
      "",
      `Embedded demo server, ${COLUMNS}x${ROWS} pty answering as a terminal does (DA1); the time is the arrival of the output chunk that completes the first conversation row ("#team"). The floor is \`node -e 0\` spawned the same way (through \`script\` and \`stty\`) until it exits. A usual start has the demo database, the query cache and the start screen the last run kept, and draws the list from them while the embedded server starts; without the kept cache (the XDG cache folder removed; V8's code cache, kept in the temp folder as Node's compile cache is, stays) the first frame waits for the server's first answers; a first run also creates and seeds the database.`,
      "",
      "| what | runs | median ms | min ms | max ms | vs floor | aim |",
      "|---|---:|---:|---:|---:|---:|---|",
      row("`node -e 0` in the same pty wrapper (**floor**)", floorPty),
      row("`node -e 0`, plain spawn, no pty", floorBare),
      row("parley, usual start: first output byte (the terminal query)", firstByte),
      row("**parley, usual start: first frame with conversations**", usual, aim(usual, AIM_USUAL)),
      row(
        "**parley, no kept cache: first frame with conversations**",
        uncached,
        aim(uncached, AIM_UNCACHED),
      ),
      row("parley, first run (seeds the demo db): first frame with conversations", seeding),
    ];
  } finally {
    for (const home of used) removeHome(home);
  }
}

// ---- 2. bytes per keystroke ----

async function benchTyping(): Promise<string[]> {
  const server = await demoServer();
  const { home, env } = freshHome();
  let pty: Pty | undefined;
  try {
    pty = new Pty(CLIENT, {
      ...env,
      PARLEY_BASE_URL: server.info.url,
      PARLEY_TOKEN: server.info.tokens.alice!,
    });
    await pty.until(() => pty!.tail.includes("#team"), "the conversation list", 20_000);
    await pty.quiet(500);
    const firstFrames = pty.bytes;

    await openConversation(pty, "#team");
    await pty.quiet(500);
    const perKey: number[] = [];
    const lastMs: number[] = [];
    for (const char of TYPED) {
      const r = await pty.press(char);
      perKey.push(r.bytes);
      if (r.last !== undefined) lastMs.push(r.last);
    }
    const screen = pty.screen();
    if (!screen.includes(TYPED.slice(-20))) {
      throw new Error(`the typed text is not on screen:\n${screen}`);
    }
    await pty.press(KEY.ctrlU, 100);
    // The selection moved a row in the messages (Esc focuses them).
    await pty.press(KEY.escape, 300);
    const perMove: number[] = [];
    for (const key of ["k", "k", "k", "j", "j", "j"])
      perMove.push((await pty.press(key, 150)).bytes);

    // A full redraw: resize away and back; count what the return to 120x40 writes.
    pty.resize(COLUMNS - 1, ROWS);
    await pty.quiet(300);
    const before = pty.bytes;
    pty.resize(COLUMNS, ROWS);
    await pty.until(() => pty!.bytes > before, "a redraw after the resize", 3000);
    await pty.quiet(300);
    const redraw = pty.bytes - before;
    await pty.quit();

    clientFigures.typing = { p50: median(lastMs), p90: percentile(lastMs, 0.9) };
    const p50 = median(perKey);
    const p90 = percentile(perKey, 0.9);
    const max = Math.max(...perKey);
    return [
      "### 2. Bytes written per keystroke, typing in the composer",
      "",
      `\`parley serve --demo --no-demo-replies\` in a child process; the first conversation open, ${perKey.length} printable characters typed one at a time, each followed by ${KEY_QUIET_MS} ms of silence. Polling runs meanwhile (an unchanged poll writes nothing).`,
      "",
      "| what | n | median B | p90 B | max B | aim |",
      "|---|---:|---:|---:|---:|---|",
      `| one printable keystroke | ${perKey.length} | ${p50} | ${p90} | ${max} | ≤ ${KEY_AIM_BYTES} B (issue 23): ${verdict(p90 <= KEY_AIM_BYTES)} (median ${verdict(p50 <= KEY_AIM_BYTES)}) |`,
      `| the selection one row up or down in the messages | ${perMove.length} | ${median(perMove)} | ${percentile(perMove, 0.9)} | ${Math.max(...perMove)} | ≤ 10% of a full redraw: ${verdict(percentile(perMove, 0.9) <= redraw / 10)} (${((median(perMove) / redraw) * 100).toFixed(1)}%) |`,
      `| one full redraw at ${COLUMNS}x${ROWS} (a resize back from ${COLUMNS - 1} columns) | 1 | ${redraw} | | | |`,
      `| start-up until quiet (every frame up to the full conversation list) | 1 | ${firstFrames} | | | |`,
      "",
      `A keystroke costs ${((p50 / redraw) * 100).toFixed(1)}% of a full redraw (median); keystroke to last byte: median ${ms(median(lastMs))} ms, p90 ${ms(percentile(lastMs, 0.9))} ms.`,
    ];
  } finally {
    if (pty) await pty.kill();
    await stopTree(server.child.pid!);
    removeHome(home);
  }
}

// ---- 3. frame cost vs history length ----

type Memory = {
  rssOpen: number;
  /** With the oldest message on screen: the client holds its window of pages far back. */
  rssOldest: number;
  rssLoaded: number;
  peak: number;
  rssIdle: number;
  /** process.memoryUsage() in the client, MB, before and after a forced full GC. */
  heapUsed: number;
  heapTotal: number;
  heapUsedAfterGc: number;
  heapTotalAfterGc: number;
  external: number;
  rssAfterGc: number;
};

type Loaded = {
  size: number;
  pty: Pty;
  home: string;
  inspectPort: number;
  rssOpen: number;
  rssOldest: number;
  loadSeconds: number;
  /** The client's CPU time (every thread) while its history loaded. */
  loadCpuSeconds: number;
  gPresses: number;
  unanswered: number;
  /** Each g's round: the key, its page, the bench's quiet waits. */
  rounds: number[];
  first: number[];
  last: number[];
  bytes: number[];
  /** CPU time of the client's process (every thread) over the k presses, in ms. */
  pressCpuMs?: number;
  memory?: Memory;
};

export async function openConversation(pty: Pty, name: string): Promise<void> {
  await pty.until(() => pty.screen().includes(name), `"${name}" in the sidebar`, 20_000);
  await pty.quiet(300);
  for (let i = 0; i < 20; i++) {
    const row = pty
      .screen()
      .split("\n")
      .find((line) => line.includes("▸"));
    if (row?.includes(name)) {
      await pty.press(KEY.enter, 300);
      return;
    }
    await pty.press("j", 150);
  }
  throw new Error(`could not select "${name}" in the sidebar:\n${pty.screen()}`);
}

/**
 * Asks the client's own V8 for its memory through the inspector, switched on only now
 * (SIGUSR1; the port was set at launch with --inspect-port, which by itself starts
 * nothing), so the measured runs carry no inspector.
 */
async function heapOf(
  pid: number,
  port: number,
): Promise<{ before: NodeJS.MemoryUsage; after: NodeJS.MemoryUsage }> {
  process.kill(pid, "SIGUSR1");
  let targets: { webSocketDebuggerUrl: string }[] = [];
  for (let i = 0; i < 50 && targets.length === 0; i++) {
    await sleep(100);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/list`);
      targets = (await res.json()) as { webSocketDebuggerUrl: string }[];
    } catch {
      // not listening yet
    }
  }
  if (targets.length === 0) throw new Error("the client's inspector did not start");
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const pending = new Map<number, (result: unknown) => void>();
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  };
  let nextId = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  const usage = async () => {
    const result = (await call("Runtime.evaluate", {
      expression: "JSON.stringify(process.memoryUsage())",
      returnByValue: true,
    })) as { result: { value: string } };
    return JSON.parse(result.result.value) as NodeJS.MemoryUsage;
  };
  try {
    const before = await usage();
    await call("HeapProfiler.collectGarbage");
    await call("HeapProfiler.collectGarbage");
    const after = await usage();
    return { before, after };
  } finally {
    ws.close();
  }
}

/** A client with the conversation open and its whole history loaded, at the newest message. */
async function loadHistory(
  server: ServerInfo,
  contact: string,
  marker: string,
  size: number,
  extraEnv: Record<string, string>,
): Promise<Loaded> {
  const { home, env } = freshHome();
  const inspectPort = await freePort();
  const pty = new Pty(CLIENT.replace(/^node /, `node --inspect-port=127.0.0.1:${inspectPort} `), {
    ...env,
    ...extraEnv,
    PARLEY_BASE_URL: server.url,
    PARLEY_TOKEN: server.tokens.alice!,
  });
  try {
    await openConversation(pty, contact);
    await pty.quiet(500);
    await pty.press(KEY.escape, 300); // to the messages pane
    await pty.quiet(300);
    const rssOpen = pty.rssMB().rss;

    // g (oldest loaded) until the oldest message is on screen: g selects the oldest loaded
    // message, and reaching the top loads the next older page. After each g the bench
    // waits for its page ("loading older…" gone) and 30 ms of quiet; a g with no output
    // within 1 s counts as unanswered.
    const oldest = `${marker}00000`;
    const loadStart = performance.now();
    const cpuAtStart = pty.cpuMs();
    let gPresses = 0;
    let unanswered = 0;
    const rounds: number[] = [];
    while (!pty.screen().includes(oldest)) {
      if (++gPresses > size / 10 + 50) {
        throw new Error(`the whole history did not load:\n${pty.screen()}`);
      }
      const roundStart = performance.now();
      const r = await pty.press("g", 30, 1000);
      if (r.first === undefined && ++unanswered === 1 && VERBOSE) {
        log(`g #${gPresses} unanswered:\n${pty.screen()}`);
      }
      if (pty.screen().includes(LOADING_OLDER)) {
        await pty.until(() => !pty.screen().includes(LOADING_OLDER), "the older page", 15_000);
        await pty.quiet(30);
      }
      rounds.push(performance.now() - roundStart);
      if (VERBOSE) {
        log(
          `g #${gPresses} at ${ms(performance.now() - loadStart)} ms: first frame ${ms(r.last ?? -1)} ms, ${r.bytes} B`,
        );
      }
    }
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const loadCpuSeconds = (pty.cpuMs() - cpuAtStart) / 1000;
    await pty.quiet(300);
    const rssOldest = pty.rssMB().rss;
    await pty.press("G", 300);
    await pty.quiet(300);
    return {
      size,
      pty,
      home,
      inspectPort,
      rssOpen,
      rssOldest,
      loadSeconds,
      loadCpuSeconds,
      gPresses,
      unanswered,
      rounds,
      first: [],
      last: [],
      bytes: [],
    };
  } catch (error) {
    await pty.kill();
    removeHome(home);
    throw error;
  }
}

const CONTACTS = [
  { contact: "dave", marker: "d" },
  { contact: "bob", marker: "b" },
];
/** Largest first: the biggest conversation goes to dave. */
const BY_SIZE = [...HISTORY_SIZES].sort((a, b) => b - a);

/**
 * One client per conversation, all loaded, then k on each in turn (the order flips every
 * round, so a busy moment of the shared machine lands on every series alike), then memory.
 */
async function measureClients(
  server: ServerInfo,
  extraEnv: Record<string, string>,
  label: string,
): Promise<Loaded[]> {
  const clients: Loaded[] = [];
  try {
    for (const size of HISTORY_SIZES) {
      const { contact, marker } = CONTACTS[BY_SIZE.indexOf(size)]!;
      const loaded = await loadHistory(server, contact, marker, size, extraEnv);
      clients.push(loaded);
      log(`${label}${size} messages loaded in ${ms(loaded.loadSeconds)} s (${loaded.gPresses} g)`);
    }
    const cpuBefore = clients.map((c) => c.pty.cpuMs());
    for (let i = 0; i < PRESSES; i++) {
      const order = i % 2 === 0 ? clients : [...clients].reverse();
      for (const c of order) {
        const r = await c.pty.press("k");
        if (r.first === undefined || r.last === undefined) {
          throw new Error(`no frame after k #${i + 1}:\n${c.pty.screen()}`);
        }
        c.first.push(r.first);
        c.last.push(r.last);
        c.bytes.push(r.bytes);
      }
    }
    for (const [i, c] of clients.entries()) c.pressCpuMs = c.pty.cpuMs() - cpuBefore[i]!;
    const rssLoaded = clients.map((c) => c.pty.rssMB());
    await sleep(IDLE_MS);
    for (const [i, c] of clients.entries()) {
      const rssIdle = c.pty.rssMB().rss;
      const heap = await heapOf(c.pty.nodePid()!, c.inspectPort);
      const mb = (n: number) => n / 1e6;
      c.memory = {
        rssOpen: c.rssOpen,
        rssOldest: c.rssOldest,
        rssLoaded: rssLoaded[i]!.rss,
        peak: rssLoaded[i]!.hwm,
        rssIdle,
        heapUsed: mb(heap.before.heapUsed),
        heapTotal: mb(heap.before.heapTotal),
        heapUsedAfterGc: mb(heap.after.heapUsed),
        heapTotalAfterGc: mb(heap.after.heapTotal),
        external: mb(heap.after.external),
        rssAfterGc: c.pty.rssMB().rss,
      };
      log(
        `${label}${c.size} messages: k frame p50 ${ms(median(c.last))} ms, ${JSON.stringify(c.memory)}`,
      );
    }
    return clients;
  } finally {
    for (const c of clients) {
      await c.pty.kill();
      removeHome(c.home);
    }
  }
}

async function benchHistory(): Promise<string[]> {
  const server = await emptyServer();
  try {
    const t0 = performance.now();
    for (const [i, size] of BY_SIZE.entries()) {
      const { contact, marker } = CONTACTS[i]!;
      await seedConversation(server.info, contact, marker, size);
    }
    log(`posted ${BY_SIZE.join(" + ")} messages in ${ms((performance.now() - t0) / 1000)} s`);

    const shipped = await measureClients(server.info, {}, "");
    const production = await measureClients(
      server.info,
      { NODE_ENV: "production" },
      "NODE_ENV=production: ",
    );

    const [small, big] = [shipped[0]!, shipped.at(-1)!];
    const [smallMem, bigMem] = [small.memory!, big.memory!];
    const n = (c: Loaded) => c.size.toLocaleString("en");
    const PROD = " (`NODE_ENV=production`, diagnostic)";
    const latencyRow = (c: Loaded, note = "") =>
      `| ${n(c)}${note} | ${c.first.length} | ${ms(median(c.first))} | ${ms(percentile(c.first, 0.9))} | ${ms(median(c.last))} | ${ms(percentile(c.last, 0.9))} | ${ms(Math.max(...c.last))} | ${median(c.bytes)} | ${ms(c.pressCpuMs! / c.last.length)} |`;
    const ratioRow = ([a, b]: Loaded[], note = "") =>
      `| **ratio ${n(b!)} / ${n(a!)}**${note} | | ${ratio(median(b!.first), median(a!.first))} | ${ratio(percentile(b!.first, 0.9), percentile(a!.first, 0.9))} | ${ratio(median(b!.last), median(a!.last))} | ${ratio(percentile(b!.last, 0.9), percentile(a!.last, 0.9))} | ${ratio(Math.max(...b!.last), Math.max(...a!.last))} | | ${ratio(b!.pressCpuMs!, a!.pressCpuMs!)} |`;
    const loadRow = (c: Loaded, note = "") =>
      `| ${n(c)}${note} | ${c.gPresses} (${c.unanswered}) | ${ms(c.loadSeconds)} | ${ms(c.loadCpuSeconds)} | ${ms(median(c.rounds.slice(0, 10)))} | ${ms(median(c.rounds.slice(-10)))} |`;
    const memoryRow = (c: Loaded, note = "") => {
      const m = c.memory!;
      return `| ${n(c)}${note} | ${ms(m.rssOpen)} | ${ms(m.rssOldest)} | ${ms(m.rssLoaded)} | ${ms(m.peak)} | ${ms(m.rssIdle)} | ${ms(m.heapUsed)} / ${ms(m.heapTotal)} | ${ms(m.heapUsedAfterGc)} / ${ms(m.heapTotalAfterGc)} | ${ms(m.external)} | ${ms(m.rssAfterGc)} |`;
    };
    clientFigures.scrolling = { p50: median(big.last), p90: percentile(big.last, 0.9) };
    const p50Ratio = median(big.last) / median(small.last);
    const p90Ratio = percentile(big.last, 0.9) / percentile(small.last, 0.9);
    /** Issue 23. */
    // What the client keeps once quiet: while it loads, V8 grows its heap for speed, and it
    // gives that back after a few quiet seconds (src/client/heap-trim.ts); the peak is shown.
    const rssOk = bigMem.rssIdle <= 130;
    const prodBig = production.at(-1)!;
    return [
      "### 3. Keystroke to frame against history length (messages pane, whole history loaded)",
      "",
      `A server without demo data or rate limit in a child process; alice's conversations with dave (${n(big)} messages) and bob (${n(small)}), posted over HTTP ${POST_CONCURRENCY} at a time, 3 to 42 words each (some wrap). One client per conversation (both running) opens it, goes through the whole history with g (50 per page) until the oldest message shows, then G (the client keeps a window of 12 pages: far back, the newest were dropped, and G fetches the newest page again). Then k, ${PRESSES} times on each, alternating between the two, each timed from the write to the first output byte and to the last byte before ${KEY_QUIET_MS} ms of silence (the frame done); CPU per press is the client's CPU time (every thread, its polls included) over all its presses, divided by them. Both clients poll meanwhile (the open conversation every 2 s). The rows marked diagnostic repeat this with \`NODE_ENV=production\` in the client's environment: the build defines it, so these rows should match the others.`,
      "",
      "| messages loaded | k presses | first byte p50 ms | first byte p90 ms | frame done p50 ms | frame done p90 ms | frame done max ms | bytes/press p50 | CPU ms/press |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
      latencyRow(small),
      latencyRow(big),
      ratioRow(shipped),
      ...production.map((c) => latencyRow(c, PROD)),
      ratioRow(production, PROD),
      "",
      `Aim frame-done ratio ≤ 1.5x: p50 ${verdict(p50Ratio <= 1.5)} (${ratio(median(big.last), median(small.last))}), p90 ${verdict(p90Ratio <= 1.5)} (${ratio(percentile(big.last, 0.9), percentile(small.last, 0.9))}).`,
      "",
      'Loading the history. A round is one g: the key, its page, the bench\'s 30 ms quiet waits; "unanswered" counts g presses with no output within 1 s; "client CPU s" is the client\'s CPU time (every thread) while its whole history loaded.',
      "",
      "| messages | g presses (unanswered) | load all s | client CPU s | round p50, first 10 pages, ms | round p50, last 10 pages, ms |",
      "|---|---:|---:|---:|---:|---:|",
      loadRow(small),
      loadRow(big),
      ...production.map((c) => loadRow(c, PROD)),
      "",
      `Memory of the client's node process, MB (10^6 bytes). RSS (/proc VmRSS; peak = VmHWM): once the conversation is open (one page), with the oldest message on screen (the client keeps a window of pages, not all it scrolled past), after G and the k presses with everything loaded, after ${IDLE_MS / 1000} s more of idling. Then, through the inspector switched on only at this point, V8's heap used / committed as the client had it, and after two forced full GCs (live data), with the RSS after that GC.`,
      "",
      "| messages | RSS open | RSS at the oldest | RSS loaded | peak RSS | RSS idle | heap used / total | after full GC: heap used / total | external | RSS after GC |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      memoryRow(small),
      memoryRow(big),
      ...production.map((c) => memoryRow(c, PROD)),
      "",
      `Aim RSS with ${n(big)} loaded ≤ 130 MB (issue 23), as kept once idle: ${verdict(rssOk)} (${ms(bigMem.rssIdle)} MB; ${ms(prodBig.memory!.rssIdle)} MB with \`NODE_ENV=production\`; at the peak, while it loaded, ${ms(bigMem.peak)} MB).${rssOk ? "" : ` What dominates: V8's heap. The client held ${ms(bigMem.heapTotal)} MB of heap, ${ms(bigMem.heapUsed)} MB of it in use, yet a full GC leaves ${ms(bigMem.heapUsedAfterGc)} MB live (${ms(smallMem.heapUsedAfterGc)} MB with ${n(small)}) and brings RSS down to ${ms(bigMem.rssAfterGc)} MB: the heap grew with the garbage made while the history loaded, and is kept. The rest is node, the loaded modules and their code (~${ms(smallMem.rssOpen)} MB with one page open).`}`,
    ];
  } finally {
    await stopTree(server.child.pid!);
  }
}

// ---- all ----

/** Runs `bench`; whatever it started is killed and removed when it ends, and on a signal. */
export async function cleaningUp<T>(bench: () => Promise<T>): Promise<T> {
  const onSignal = () => {
    killAllNow();
    process.exit(130);
  };
  process.on("exit", killAllNow);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await bench();
  } finally {
    killAllNow();
    process.off("exit", killAllNow);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

export function benchClient(): Promise<string> {
  execFileSync("script", ["-V"], { stdio: "ignore" }); // util-linux `script` is required
  return cleaningUp(async () => {
    const want = (part: string) => ONLY === undefined || ONLY === part;
    log("start-up…");
    const startup = want("startup") ? await benchStartup() : [];
    log("bytes per keystroke…");
    const typing = want("typing") ? await benchTyping() : [];
    log("history…");
    const history = want("history") ? await benchHistory() : [];
    return [
      `Client benchmark: node ${process.version}, ${availableParallelism()} cores, the built client (dist/cli.js) in a ${COLUMNS}x${ROWS} pty (util-linux \`script\`), TERM=xterm-256color, fresh XDG folders per run.`,
      "",
      ...startup,
      "",
      ...typing,
      "",
      ...history,
    ].join("\n");
  });
}

if (import.meta.main) {
  if (process.argv.includes("--serve-empty")) await serveEmpty();
  else process.stdout.write(`${await benchClient()}\n`);
}
