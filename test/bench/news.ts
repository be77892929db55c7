// How soon news shows: from bob's (or carol's) POST returning to the text on alice's screen,
// in the open conversation and in the row of another one, with the event stream and with
// polling (the same server behind a relay that has no /v1/events), in one run.
//   npm run build && node --experimental-strip-types test/bench/news.ts
// BENCH_NEWS_SAMPLES sets the messages per case (default 30). Sends are spaced a random
// 0.3-1.5 s apart, so they fall anywhere in a poll's cycle.
import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import {
  aliceClient,
  cleaningUp,
  demoServer,
  median,
  ms,
  openConversation,
  type Pty,
  removeHome,
  sleep,
  stopTree,
} from "./client.ts";
import { startRelay } from "./relay.ts";

const SAMPLES = Number(process.env.BENCH_NEWS_SAMPLES ?? 30);
const log = (line: string) => process.stderr.write(`bench news: ${line}\n`);

type ServerInfo = { url: string; tokens: Record<string, string> };

function p99(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]!;
}

export async function api(
  info: ServerInfo,
  user: string,
  path: string,
  body?: Record<string, string>,
) {
  // A kept-alive socket the server closed as it was taken (a loaded bench process notices
  // its keep-alive timer late) fails with "other side closed": sent again under the same
  // Idempotency-Key, a POST the server did take is answered, not made twice.
  const key = randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${info.url}${path}`, {
        method: body ? "POST" : "GET",
        headers: {
          authorization: `Bearer ${info.tokens[user]}`,
          ...(body && {
            "content-type": "application/x-www-form-urlencoded",
            "idempotency-key": key,
          }),
        },
        ...(body && { body: new URLSearchParams(body).toString() }),
      });
      if (!res.ok) throw new Error(`${path} as ${user}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    } catch (error) {
      if (attempt >= 3 || !(error instanceof TypeError)) throw error;
    }
  }
}

/** The id of `user`'s conversation with alice (made if need be). */
export const withAlice = async (info: ServerInfo, user: string) =>
  (await api(info, user, "/v1/conversations", { contact_id: "ct_alice" })).id;

/** Times `samples` sends by `user` into `conversationId` until each shows in alice's pty. */
async function timeSends(
  pty: Pty,
  info: ServerInfo,
  user: string,
  conversationId: string,
  tag: string,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await sleep(300 + Math.random() * 1200);
    // Short: it fits a sidebar row's preview.
    const marker = `${tag}${i}q${Math.random().toString(36).slice(2, 6)}`;
    await api(info, user, "/v1/messages", { conversation_id: conversationId, message: marker });
    const posted = performance.now();
    // The screen, not the raw output: a desktop notification carries the text too.
    await pty.until(() => pty.screen().includes(marker), `${marker} on alice's screen`, 20_000);
    times.push(performance.now() - posted);
  }
  return times;
}

export async function benchNews(): Promise<string> {
  return cleaningUp(async () => {
    const server = await demoServer();
    const { info } = server;
    const rows: string[] = [];
    try {
      const withBob = await withAlice(info, "bob");
      const withCarol = await withAlice(info, "carol");
      for (const events of [true, false]) {
        const mode = events ? "events" : "polling (2 s open, 4 s once quiet; 10 s list)";
        const relay = await startRelay(info.url, { events, etags: true });
        const { home, pty } = aliceClient(relay.url, info.tokens);
        try {
          await openConversation(pty, "bob");
          await pty.until(() => pty.screen().includes("Message bob"), "the composer", 20_000);
          await sleep(2000);
          log(`${mode}: the open conversation…`);
          const open = await timeSends(pty, info, "bob", withBob, events ? "ev" : "po");
          log(`${mode}: a list row…`);
          const row = await timeSends(pty, info, "carol", withCarol, events ? "er" : "pr");
          for (const [where, t] of [
            ["open conversation", open],
            ["list row of another conversation", row],
          ] as const) {
            rows.push(
              `| ${mode} | ${where} | ${t.length} | ${ms(median(t))} | ${ms(p99(t))} | ${ms(Math.max(...t))} |`,
            );
          }
        } finally {
          await pty.kill();
          await relay.close();
          removeHome(home);
        }
      }
    } finally {
      await stopTree(server.child.pid!);
    }
    return [
      `News latency: node ${process.version}, ${availableParallelism()} cores. The demo server (\`node src/server/main.ts --demo --no-demo-replies\`, in memory) in a child process, the built client (dist/cli.js) in a pty as alice with her conversation with bob open, through an HTTP relay (\`test/bench/relay.ts\`) that streams answers as they come, and for polling answers /v1/events with 404 (a server without events). Bob (open conversation) or carol (a row in the list) sends a short message over HTTP, ${SAMPLES} each, 0.3 to 1.5 s apart; the time is from the POST's answer to the text in the client's terminal output. Goal with events: median < 100 ms, p99 < 300 ms.`,
      "",
      "| mode | where | n | median ms | p99 ms | max ms |",
      "|---|---|---:|---:|---:|---:|",
      ...rows,
    ].join("\n");
  });
}

if (import.meta.main) process.stdout.write(`${await benchNews()}\n`);
