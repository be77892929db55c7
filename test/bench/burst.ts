// A burst of news: 1,000 messages sent as fast as an empty server without a rate limit takes
// them (50 at a time, about a second), once into the conversation alice has open and once
// into another. Meanwhile alice types into her composer; each character is timed from its
// write to its showing on screen (key echo). Then the time from the burst's first send to
// the screen showing its last message (caught up), and the client's CPU and memory.
//   npm run build && node --experimental-strip-types test/bench/burst.ts

import { Worker } from "node:worker_threads";
import {
  aliceClient,
  cleaningUp,
  emptyServer,
  median,
  ms,
  openConversation,
  type Pty,
  removeHome,
  sleep,
  stopTree,
} from "./client.ts";
import { api, withAlice } from "./news.ts";

const COUNT = Number(process.env.BENCH_BURST_COUNT ?? 1000);
/** Bursts into one client, their keys pooled: one burst's fifteen keys gave a p99 that moved 30 ms a run. */
const ROUNDS = Number(process.env.BENCH_BURST_ROUNDS ?? 4);
const PARALLEL = 50;
const TYPED = "keysduringtheburst";
const ECHO_GIVE_UP_MS = 60_000;
const CATCH_UP_GIVE_UP_MS = 180_000;
const log = (line: string) => process.stderr.write(`bench burst: ${line}\n`);

/** The burst, sent from a worker thread; resolves with how long the sending took, in ms. */
function burst(info: Parameters<typeof api>[0], conversationId: string, tag: string) {
  const sender = new Worker(new URL("./burst-sender.ts", import.meta.url), {
    workerData: { info, conversationId, tag, count: COUNT, parallel: PARALLEL },
  });
  return new Promise<number>((resolve, reject) => {
    sender.once("message", (sendMs: number) => resolve(sendMs));
    sender.once("error", reject);
    sender.once("exit", (code) => reject(new Error(`the sender exited (${code})`)));
  });
}

const composerHas = (pty: Pty, text: string) =>
  pty
    .screen()
    .split("\n")
    .some((line) => line.includes(text) && !line.includes("Message "));

/** Types TYPED one key at a time until `done`; each key's time to show, in ms. */
async function typeDuring(pty: Pty, done: () => boolean): Promise<number[]> {
  const times: number[] = [];
  let typed = "";
  for (let i = 0; !done() || i < 5; i++) {
    const key = TYPED[i % TYPED.length]!;
    if (typed.length >= TYPED.length) {
      pty.write("\x15"); // Ctrl+U: the composer empty again
      await pty.until(() => !composerHas(pty, typed), "the composer cleared", 60_000);
      typed = "";
    }
    typed += key;
    const at = pty.write(key);
    const want = typed;
    try {
      await pty.until(() => composerHas(pty, want), `"${want}" in the composer`, ECHO_GIVE_UP_MS);
    } catch {
      // A client that does not answer for this long is frozen: the figure says so.
      times.push(Number.POSITIVE_INFINITY);
      return times;
    }
    times.push(performance.now() - at);
    await sleep(40);
  }
  pty.write("\x15");
  return times;
}

const pct = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

export async function benchBurst(): Promise<string> {
  return cleaningUp(async () => {
    const { child, info } = await emptyServer();
    const rows: string[] = [];
    try {
      const bob = await withAlice(info, "bob");
      const carol = await withAlice(info, "carol");
      await api(info, "bob", "/v1/messages", { conversation_id: bob, message: "hello alice" });
      await api(info, "carol", "/v1/messages", {
        conversation_id: carol,
        message: "hi from carol",
      });
      const cases = [
        ["into the open conversation", "bob"],
        ["into another conversation (its row)", "carol"],
      ] as const;
      // BENCH_BURST_ONLY=open|row runs one case (to profile it alone).
      const only = process.env.BENCH_BURST_ONLY;
      for (const [where, open] of cases.filter(
        ([, who]) => !only || (only === "open") === (who === "bob"),
      )) {
        const { home, pty } = aliceClient(info.url, info.tokens);
        try {
          await openConversation(pty, open);
          await pty.until(() => pty.screen().includes(`Message ${open}`), "the composer", 20_000);
          await pty.quiet(1000);
          const cpuBefore = pty.cpuMs();
          const rssBefore = pty.rssMB().rss;
          const sent: number[] = [];
          const caughtUp: number[] = [];
          const keys: number[] = [];
          for (let round = 1; round <= ROUNDS; round++) {
            const tag = `${open === "bob" ? "burstopen" : "burstrow"}${round}`;
            const last = `${tag} ${COUNT - 1}`;
            log(`${where}: ${COUNT} messages (${round} of ${ROUNDS})…`);
            const started = performance.now();
            let caughtAt = Number.NaN;
            const caught = pty
              .until(
                () => pty.screen().includes(last),
                "the burst's last message",
                CATCH_UP_GIVE_UP_MS,
              )
              .then(() => {
                caughtAt = performance.now();
              });
            const sending = burst(info, bob, tag);
            const echo = typeDuring(pty, () => !Number.isNaN(caughtAt));
            // Whichever fails first is the cause; the others must not end the bench unheard.
            const [sendMs, , typed] = await Promise.all([sending, caught, echo]);
            sent.push(sendMs);
            caughtUp.push(caughtAt - started);
            keys.push(...typed);
            await pty.quiet(1000);
          }
          const fmt = (n: number) =>
            Number.isFinite(n) ? ms(n) : `over ${ECHO_GIVE_UP_MS / 1000} s`;
          const cpu = (pty.cpuMs() - cpuBefore) / ROUNDS;
          const rssCaught = pty.rssMB().rss;
          await sleep(10_000);
          const rssLater = pty.rssMB().rss;
          const seconds = (values: number[]) => `${(median(values) / 1000).toFixed(2)} s`;
          rows.push(
            `| ${where} | ${seconds(sent)} | ${fmt(median(keys))} / ${fmt(pct(keys, 0.95))} / ${fmt(pct(keys, 0.99))} / ${fmt(Math.max(...keys))} (${keys.length}) | ${seconds(caughtUp)} | ${(cpu / 1000).toFixed(2)} s | ${rssBefore.toFixed(0)} → ${rssCaught.toFixed(0)} → ${rssLater.toFixed(0)} |`,
          );
        } catch (error) {
          // What the client last drew (a crash's last words are on its terminal).
          const tail = pty.tail.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, "").slice(-1500);
          log(`${where}: failed (${String(error)}); the terminal's last output:\n${tail}`);
          throw error;
        } finally {
          await pty.kill();
          removeHome(home);
        }
      }
    } finally {
      await stopTree(child.pid!);
    }
    return [
      `${ROUNDS} bursts of ${COUNT} messages from bob, each sent ${PARALLEL} at a time from a worker thread to an empty server without a rate limit (a child process), while the built client (dist/cli.js, a pty at 120x40) shows alice's conversation with bob, or her conversation with carol with bob's row in the list. Meanwhile alice types, a key every 40 ms once the last showed: key echo is from the write to the key on screen, the keys of all bursts together. Sent in and caught up (from the first send to the burst's last message on screen): the median burst. CPU: the client's process, a burst's share of the bursts until caught up. RSS in MB: before, once the last burst caught up, 10 s later.`,
      "",
      "| burst | sent in | key echo p50 / p95 / p99 / max ms (keys) | caught up | client CPU | client RSS MB |",
      "|---|---:|---:|---:|---:|---:|",
      ...rows,
    ].join("\n");
  });
}

if (import.meta.main) process.stdout.write(`${await benchBurst()}\n`);
