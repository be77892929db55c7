// A burst of news: 1,000 messages sent as fast as an empty server without a rate limit takes
// them (50 at a time, about a second), once into the conversation alice has open and once
// into another. Meanwhile alice types into her composer; each character is timed from its
// write to its showing on screen (key echo). Then the time from the burst's first send to
// the screen showing its last message (caught up), and the client's CPU and memory.
//   npm run build && node --experimental-strip-types test/bench/burst.ts
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
const PARALLEL = 50;
const TYPED = "keysduringtheburst";
const ECHO_GIVE_UP_MS = 60_000;
const CATCH_UP_GIVE_UP_MS = 180_000;
const log = (line: string) => process.stderr.write(`bench burst: ${line}\n`);

async function burst(
  info: Parameters<typeof api>[0],
  conversationId: string,
  tag: string,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < COUNT; i += PARALLEL) {
    const sends = [];
    for (let n = i; n < Math.min(COUNT, i + PARALLEL); n++) {
      sends.push(
        api(info, "bob", "/v1/messages", {
          conversation_id: conversationId,
          message: `${tag} ${n}`,
        }),
      );
    }
    await Promise.all(sends);
  }
  return performance.now() - started;
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
          const tag = open === "bob" ? "burstopen" : "burstrow";
          const last = `${tag} ${COUNT - 1}`;
          const cpuBefore = pty.cpuMs();
          const rssBefore = pty.rssMB().rss;
          log(`${where}: ${COUNT} messages…`);
          const started = performance.now();
          let caughtAt = Number.NaN;
          const caught = pty
            .until(() => pty.screen().includes(last), "the burst's last message", 300_000)
            .then(() => {
              caughtAt = performance.now();
            });
          const sending = burst(info, bob, tag);
          const echo = typeDuring(pty, () => !Number.isNaN(caughtAt));
          // Whichever fails first is the cause; the others must not end the bench unheard.
          const [sendMs, , keys] = await Promise.all([sending, caught, echo]);
          const fmt = (n: number) =>
            Number.isFinite(n) ? ms(n) : `over ${ECHO_GIVE_UP_MS / 1000} s`;
          const cpu = pty.cpuMs() - cpuBefore;
          const rssCaught = pty.rssMB().rss;
          await sleep(10_000);
          const rssLater = pty.rssMB().rss;
          rows.push(
            `| ${where} | ${(sendMs / 1000).toFixed(2)} s | ${fmt(median(keys))} / ${fmt(pct(keys, 0.99))} (${keys.length}) | ${Number.isFinite(caughtAt) ? `${((caughtAt - started) / 1000).toFixed(2)} s` : `not within ${CATCH_UP_GIVE_UP_MS / 1000} s`} | ${(cpu / 1000).toFixed(2)} s | ${rssBefore.toFixed(0)} → ${rssCaught.toFixed(0)} → ${rssLater.toFixed(0)} |`,
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
      `${COUNT} messages from bob, sent ${PARALLEL} at a time to an empty server without a rate limit (a child process), while the built client (dist/cli.js, a pty at 120x40) shows alice's conversation with bob, or her conversation with carol with bob's row in the list. Meanwhile alice types, a key every 40 ms once the last showed: key echo is from the write to the key on screen. Caught up: from the first send to the burst's last message on screen. CPU: the client's process over the burst, until caught up. RSS in MB: before, once caught up, 10 s later.`,
      "",
      "| burst | sent in | key echo p50 / p99 ms (keys) | caught up | client CPU | client RSS MB |",
      "|---|---:|---:|---:|---:|---:|",
      ...rows,
    ].join("\n");
  });
}

if (import.meta.main) process.stdout.write(`${await benchBurst()}\n`);
