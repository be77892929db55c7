// parley beside the terminal chat clients people keep open for years (issue 23): WeeChat
// and irssi from Debian (`apt-get install weechat-curses irssi`), where installed. Each
// in the same 120x40 pty (util-linux `script`), not connected to anything; parley on its
// embedded demo, whose server thread is counted in parley's figures. Everything is
// measured in this one run, and shown as ratios:
//   - start-up: spawn to the first full frame, beside `node -e 0` through the same wrapper;
//   - bytes written for one key typed in the input line (the median of several);
//   - idle: CPU time (user + system, every thread, /proc/PID/stat) and wakeups (voluntary
//     context switches of every thread) over the same idle minute for all of them at once,
//     after IDLE_SETTLE_MS; bytes written meanwhile; resident memory after that settling.
// CPU time, wakeups and bytes hardly depend on how busy the machine is; wall times do.
//   npm run build && node --experimental-strip-types test/bench/peers.ts
// For trying things out: BENCH_IDLE_MS shortens the idle window (default a minute), and
// BENCH_PEERS_STARTUP_RUNS=0 leaves start-up out.
import { readdirSync, readFileSync } from "node:fs";
import { onPath } from "../processes.ts";
import {
  CLIENT,
  cleaningUp,
  freshHome,
  median,
  ms,
  openConversation,
  Pty,
  processCpuMs,
  ratio,
  removeHome,
  timeToExit,
} from "./client.ts";

const STARTUP_RUNS = Number(process.env.BENCH_PEERS_STARTUP_RUNS ?? 7);
const IDLE_SETTLE_MS = 10_000;
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 60_000);
const TYPED = "hello world";
const KEY_QUIET_MS = 150;

const log = (line: string) => process.stderr.write(`bench peers: ${line}\n`);

type Peer = {
  name: string;
  /** The command line, with HOME for the run's fresh home folder. */
  command: string;
  /** On screen once the first full frame is drawn. */
  ready: string;
  /** Debian package, for the "not installed" row. */
  package: string;
};

const PEERS: Peer[] = [
  {
    name: "WeeChat",
    command: "weechat --dir HOME/weechat",
    ready: "[core]",
    package: "weechat-curses",
  },
  {
    name: "irssi",
    command: "irssi --home=HOME/irssi -n bench",
    ready: "[(status)]",
    package: "irssi",
  },
];

const programOf = (peer: Peer) => peer.command.split(" ")[0]!;

/** CPU time in ms and voluntary context switches of a process, all its threads. */
export function usage(pid: number): { cpuMs: number; wakeups: number } {
  let wakeups = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, "utf8");
      wakeups += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // the thread ended meanwhile
    }
  }
  return { cpuMs: processCpuMs(pid), wakeups };
}

function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return (Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) * 1024) / 1e6;
}

/** The program the pty runs (script's child, after `exec`). */
function programPid(pty: Pty, program: string): number {
  const pid =
    program === "node"
      ? pty.nodePid()
      : readdirSync("/proc")
          .filter((entry) => /^\d+$/.test(entry))
          .map(Number)
          .find((pid) => {
            try {
              const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
              const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
              const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
              return ppid === pty.child.pid && comm.startsWith(program.slice(0, 15));
            } catch {
              return false;
            }
          });
  if (pid === undefined) throw new Error(`${program} is not running in its pty`);
  return pid;
}

type Started = { pty: Pty; pid: number; home: string };

async function startPeer(peer: Peer): Promise<Started & { frameMs: number }> {
  const { home, env } = freshHome();
  const pty = new Pty(peer.command.replaceAll("HOME", home), env);
  await pty.until(() => pty.screen().includes(peer.ready), `${peer.name}'s first frame`, 20_000);
  const frameMs = pty.lastDataAt - pty.spawnedAt;
  return { pty, pid: programPid(pty, programOf(peer)), home, frameMs };
}

/** parley on its embedded demo; `home` is a seeded one for a usual start. */
async function startParley(env: Record<string, string>, home: string) {
  const pty = new Pty(CLIENT, env);
  await pty.until(() => pty.tail.includes("#team"), "parley's list", 20_000);
  const frameMs = pty.lastDataAt - pty.spawnedAt;
  return { pty, pid: programPid(pty, "node"), home, frameMs };
}

async function bytesPerKey(pty: Pty): Promise<number> {
  await pty.quiet(500);
  const bytes: number[] = [];
  for (const char of TYPED) {
    if (char === " ") continue;
    bytes.push((await pty.press(char, KEY_QUIET_MS)).bytes);
  }
  return median(bytes);
}

export async function benchPeers(): Promise<string> {
  return cleaningUp(async () => {
    const available = PEERS.filter((peer) => onPath(programOf(peer)));
    const missing = PEERS.filter((peer) => !available.includes(peer));
    const homes: string[] = [];
    const running: Started[] = [];
    try {
      // ---- start-up ----
      const bare = freshHome();
      homes.push(bare.home);
      const seeded = freshHome();
      homes.push(seeded.home);
      // An untimed first start seeds the demo database and the kept cache.
      const seeding = await startParley(seeded.env, seeded.home);
      await seeding.pty.quiet(500);
      await seeding.pty.quit("q");
      const starts = new Map<string, number[]>([
        ["floor", []],
        ["parley", []],
      ]);
      for (const peer of available) starts.set(peer.name, []);
      log("start-ups…");
      for (let i = 0; i < STARTUP_RUNS; i++) {
        starts.get("floor")!.push(await timeToExit(["-e", "0"], bare.env, true));
        const parley = await startParley(seeded.env, seeded.home);
        starts.get("parley")!.push(parley.frameMs);
        await parley.pty.quiet(300);
        await parley.pty.quit("q");
        for (const peer of available) {
          const started = await startPeer(peer);
          starts.get(peer.name)!.push(started.frameMs);
          await started.pty.kill();
          removeHome(started.home);
        }
      }

      // ---- bytes per key, then idle, all at once ----
      log("bytes per key…");
      const open = freshHome();
      homes.push(open.home);
      const parleyOpen = await startParley(open.env, open.home);
      running.push(parleyOpen);
      await openConversation(parleyOpen.pty, "#team");
      const keyBytes = new Map<string, number>();
      keyBytes.set("parley", await bytesPerKey(parleyOpen.pty));
      await parleyOpen.pty.press("\x15", 200); // Ctrl+U: the draft empty again
      const list = freshHome();
      homes.push(list.home);
      const parleyList = await startParley(list.env, list.home);
      running.push(parleyList);
      const peers = new Map<string, Started>();
      for (const peer of available) {
        const started = await startPeer(peer);
        running.push(started);
        peers.set(peer.name, started);
        keyBytes.set(peer.name, await bytesPerKey(started.pty));
      }

      log(`idle: ${IDLE_SETTLE_MS / 1000} s to settle, then ${IDLE_MS / 1000} s measured…`);
      await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
      const measured = new Map<string, Started>([
        ["parley, a conversation open", parleyOpen],
        ["parley, list only", parleyList],
        ...peers,
      ]);
      const before = new Map(
        [...measured].map(([name, s]) => [name, { ...usage(s.pid), bytes: s.pty.bytes }]),
      );
      const rss = new Map([...measured].map(([name, s]) => [name, rssMB(s.pid)]));
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const idle = new Map(
        [...measured].map(([name, s]) => {
          const after = usage(s.pid);
          const start = before.get(name)!;
          const perMinute = 60_000 / IDLE_MS;
          return [
            name,
            {
              cpuMs: (after.cpuMs - start.cpuMs) * perMinute,
              wakeups: (after.wakeups - start.wakeups) * perMinute,
              bytes: (s.pty.bytes - start.bytes) * perMinute,
            },
          ];
        }),
      );

      // ---- the table ----
      const floor = STARTUP_RUNS > 0 ? median(starts.get("floor")!) : Number.NaN;
      const parleyStart = STARTUP_RUNS > 0 ? median(starts.get("parley")!) : Number.NaN;
      const parleyOpenIdle = idle.get("parley, a conversation open")!;
      const parleyRss = rss.get("parley, list only")!;
      const vs = (value: number, base: number) => (base > 0 ? ratio(value, base) : "—");
      const rows = [
        `| parley (usual start; idle with #team open / list only) | ${ms(parleyStart)} (${ratio(parleyStart, floor)} floor) | ${keyBytes.get("parley")} | ${ms(parleyOpenIdle.cpuMs)} / ${ms(idle.get("parley, list only")!.cpuMs)} | ${Math.round(parleyOpenIdle.wakeups)} / ${Math.round(idle.get("parley, list only")!.wakeups)} | ${Math.round(parleyOpenIdle.bytes)} | ${ms(rss.get("parley, a conversation open")!)} / ${ms(parleyRss)} |`,
      ];
      for (const peer of available) {
        const s = STARTUP_RUNS > 0 ? median(starts.get(peer.name)!) : Number.NaN;
        const i = idle.get(peer.name)!;
        const r = rss.get(peer.name)!;
        const k = keyBytes.get(peer.name)!;
        rows.push(
          `| ${peer.name} | ${ms(s)} (parley ${vs(parleyStart, s)}) | ${k} (parley ${vs(keyBytes.get("parley")!, k)}) | ${ms(i.cpuMs)} (parley ${vs(parleyOpenIdle.cpuMs, i.cpuMs)}) | ${Math.round(i.wakeups)} | ${Math.round(i.bytes)} | ${ms(r)} (parley ${vs(parleyRss, r)}) |`,
        );
      }
      for (const peer of missing) {
        rows.push(`| ${peer.name} | not installed (Debian: \`${peer.package}\`) | | | | | |`);
      }
      return [
        `parley beside WeeChat and irssi, each in a 120x40 pty, not connected to anything (parley on its embedded demo, its server thread included). Start-up: median of ${STARTUP_RUNS} spawns to the first full frame; the floor, \`node -e 0\` through the same pty wrapper, took ${ms(floor)} ms. Bytes per key: the median over the letters of "${TYPED}" typed in the input line. Idle: all of them at once, ${IDLE_SETTLE_MS / 1000} s after start, over ${IDLE_MS / 1000} s (scaled to a minute): CPU time of every thread, wakeups (voluntary context switches), bytes written. RSS when the idle window began.`,
        "",
        "| client | start-up ms | bytes per key | idle CPU ms/min | idle wakeups/min | idle bytes/min | RSS MB |",
        "|---|---:|---:|---:|---:|---:|---:|",
        ...rows,
      ].join("\n");
    } finally {
      for (const s of running) await s.pty.kill();
      for (const home of homes) removeHome(home);
    }
  });
}

if (import.meta.main) process.stdout.write(`${await benchPeers()}\n`);
