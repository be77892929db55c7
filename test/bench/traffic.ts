// What an idle client costs the network: requests and bytes per minute with one
// conversation open and nothing happening; with the event stream, with polling and ETags
// (the server seen without events), and with polling alone (nor ETags: parley before both).
//   npm run build && node --experimental-strip-types test/bench/traffic.ts
// The demo server (no demo replies) runs as a child process; the test proxy sits in front
// of it and counts every request and byte each way (behind it, test/bench/relay.ts hides the
// events or the ETags for the modes without); the real, built client runs in a pty
// (as in client.ts), signed in as alice through the proxy, opens the first conversation of
// its list (Enter) and is left alone. After a settling time the counters are zeroed and
// read again after the measured window, scaled to a minute.
// BENCH_TRAFFIC_SECONDS sets the window (default 30; at least 120 with events, whose
// refresh comes once a minute), BENCH_TRAFFIC_SETTLE_SECONDS the settling time (default 10),
// BENCH_TRAFFIC_ONLY one mode (the start of its label).
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { startProxy } from "../e2e/proxy.ts";
import {
  CLIENT,
  cleaningUp,
  demoServer,
  freshHome,
  KEY,
  Pty,
  removeHome,
  stopTree,
} from "./client.ts";
import { usage } from "./peers.ts";
import { startRelay } from "./relay.ts";

const SECONDS = Number(process.env.BENCH_TRAFFIC_SECONDS ?? 30);
const SETTLE_SECONDS = Number(process.env.BENCH_TRAFFIC_SETTLE_SECONDS ?? 10);
/** Only the modes whose label starts so ("events", "polling + ETags", "polling, no"). */
const ONLY = process.env.BENCH_TRAFFIC_ONLY;
const COLUMNS = 120;
const ROWS = 40;

const log = (line: string) => process.stderr.write(`bench traffic: ${line}\n`);
const sleep = (n: number) => new Promise<void>((r) => setTimeout(r, n));

/** A request's kind: method and path, ids and query values left out but `limit`'s. */
function kindOf(method: string, target: string): string {
  const url = new URL(target, "http://x");
  const path = url.pathname.replace(/\/(conv|msg|att|ct)_[^/]+/g, "/$1_…");
  const keys = [...new Set(url.searchParams.keys())]
    .sort()
    .map((key) => (key === "limit" ? `limit=${url.searchParams.get(key)}` : key));
  return `${method} ${path}${keys.length > 0 ? `?${keys.join("&")}` : ""}`;
}

export type TrafficFigures = {
  seconds: number;
  requestsPerMinute: number;
  bytesUpPerMinute: number;
  bytesDownPerMinute: number;
};
export const trafficFigures: Partial<TrafficFigures> = {};

// With events the client fetches what is on screen once a minute: its window holds two.
const MODES = [
  { label: "events", events: true, etags: true, seconds: Math.max(SECONDS, 120) },
  {
    label: "polling + ETags (a server without events)",
    events: false,
    etags: true,
    seconds: SECONDS,
  },
  { label: "polling, no ETags (as before both)", events: false, etags: false, seconds: SECONDS },
] as const;

export async function benchTraffic(): Promise<string> {
  if (!existsSync(resolve(import.meta.dirname, "../../dist/cli.js"))) {
    throw new Error("no dist/cli.js: run `npm run build` first (`npm run bench` does)");
  }
  return cleaningUp(async () => {
    const parts: string[] = [];
    const rows: string[] = [];
    for (const mode of MODES) {
      if (ONLY && !mode.label.startsWith(ONLY)) continue;
      log(`${mode.label}…`);
      const { text, row } = await measure(mode);
      rows.push(row);
      parts.push(`### ${mode.label}`, "", text, "");
    }
    return [
      "| one conversation open, idle | requests/min | bytes up/min | bytes down/min | KB/min both ways | TCP connections opened | terminal output bytes/min | CPU ms/min: client / server |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      ...rows,
      "",
      "Goals with events: under 10 KB a minute; CPU (issue 23, client and server together) at most 100 ms a minute with events, 300 ms polling. CPU is user + system time of every thread, from /proc (10 ms ticks).",
      "",
      ...parts,
    ].join("\n");
  });
}

async function measure(mode: (typeof MODES)[number]): Promise<{ text: string; row: string }> {
  const server = await demoServer();
  const relay = await startRelay(server.info.url, mode);
  const proxy = await startProxy({ target: relay.url });
  const { home, env } = freshHome();
  let pty: Pty | undefined;
  try {
    pty = new Pty(CLIENT, {
      ...env,
      PARLEY_BASE_URL: proxy.url,
      PARLEY_TOKEN: server.info.tokens.alice!,
    });
    const p = pty;
    await p.until(() => p.tail.includes("#team"), "the conversation list", 20_000);
    await p.quiet(500);
    const startup = proxy.counts();
    const selected = p
      .screen()
      .split("\n")
      .find((line) => line.includes("▸"))
      ?.replace(/[│╭╮╰╯─]/g, " ")
      .replace(/^[^#\p{L}\p{N}]+/u, "")
      .split(/\s{2,}/)[0];
    log(`opening the first conversation (${selected ?? "?"})…`);
    await p.press(KEY.enter, 300);
    log(`settling for ${SETTLE_SECONDS} s…`);
    await sleep(SETTLE_SECONDS * 1000);
    proxy.resetCounts();
    const terminalBefore = p.bytes;
    const clientPid = p.nodePid()!;
    const cpuBefore = { client: usage(clientPid).cpuMs, server: usage(server.child.pid!).cpuMs };
    log(`measuring for ${mode.seconds} s…`);
    const started = performance.now();
    await sleep(mode.seconds * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const counts = proxy.counts();
    const requests = proxy.requests();
    const terminal = p.bytes - terminalBefore;
    const clientCpu = usage(clientPid).cpuMs - cpuBefore.client;
    const serverCpu = usage(server.child.pid!).cpuMs - cpuBefore.server;
    if (p.child.exitCode !== null) throw new Error("the client exited while measured");

    const perMinute = (n: number) => (n * 60) / elapsed;
    const f0 = (n: number) => n.toFixed(0);
    const f1 = (n: number) => n.toFixed(1);
    Object.assign(trafficFigures, {
      seconds: elapsed,
      requestsPerMinute: perMinute(counts.requests),
      bytesUpPerMinute: perMinute(counts.bytesUp),
      bytesDownPerMinute: perMinute(counts.bytesDown),
    } satisfies TrafficFigures);

    const kinds = new Map<string, { n: number; down: number }>();
    for (const r of requests) {
      const kind = kindOf(r.method, r.path);
      const k = kinds.get(kind) ?? { n: 0, down: 0 };
      k.n++;
      k.down += r.bytesDown;
      kinds.set(kind, k);
    }
    const byKind = [...kinds].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]));
    const row = `| ${mode.label} | ${f1(perMinute(counts.requests))} | ${f0(perMinute(counts.bytesUp))} | ${f0(perMinute(counts.bytesDown))} | ${f1(perMinute(counts.bytesUp + counts.bytesDown) / 1024)} | ${counts.connections} | ${f0(perMinute(terminal))} | ${f0(perMinute(clientCpu))} / ${f0(perMinute(serverCpu))} |`;
    const text = [
      `Traffic benchmark (${mode.label}): node ${process.version}, ${availableParallelism()} cores. The demo server (\`node src/server/main.ts --demo --no-demo-replies\`, in memory) in a child process behind the relay (\`test/bench/relay.ts\`: events ${mode.events ? "passed on" : "answered 404"}, ETags ${mode.etags ? "passed on" : "taken out"}); the test proxy (\`test/e2e/proxy.ts\`, no delay) in front of it counts HTTP requests and TCP bytes each way; the built client (dist/cli.js) in a ${COLUMNS}x${ROWS} pty, signed in as alice through the proxy, fresh XDG folders. Once the list shows, Enter opens the first conversation (${selected ? `"${selected}"` : "the selected row"}); after ${SETTLE_SECONDS} s to settle, nothing happens for ${f1(elapsed)} s while the proxy counts, scaled to a minute.`,
      "",
      "| one conversation open, idle | requests/min | bytes up/min | bytes down/min | KB/min both ways | TCP connections opened | terminal output bytes/min | CPU ms/min: client / server |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      row,
      "",
      `Start-up to the first list, for scale: ${startup.requests} requests, ${f0(startup.bytesUp)} bytes up, ${f0(startup.bytesDown)} bytes down.`,
      "",
      "Requests in the window by kind (ids and query values left out, but the page size); a request's bytes down are those its connection carried until the next request on it (its response: the client does not pipeline):",
      "",
      "| request | count | per minute | bytes down/min | bytes down per request |",
      "|---|---:|---:|---:|---:|",
      ...byKind.map(
        ([kind, { n, down }]) =>
          `| \`${kind}\` | ${n} | ${f1(perMinute(n))} | ${f0(perMinute(down))} | ${f0(down / n)} |`,
      ),
    ].join("\n");
    return { text, row };
  } finally {
    if (pty) await pty.kill();
    await proxy.close();
    await relay.close();
    await stopTree(server.child.pid!);
    removeHome(home);
  }
}

if (import.meta.main) process.stdout.write(`${await benchTraffic()}\n`);
