// A burst of news on the event stream (a bot, a CI notifier, a pasted log: 300 messages in
// about a second) with the real embedded server and client session: the client keeps
// answering keys, the row or the pane catches up, and the burst is a handful of renders and
// fetches, not one (or more) per message. Timings are the benchmark's (npm run bench).
import type { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { Api } from "../../src/api/client.ts";
import { liveMode } from "../../src/ui/queries/live.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { harnessEachTest } from "./harness.tsx";
import { apiFor, conversationWith, openFirst } from "./helpers.ts";

const each = harnessEachTest();

/** Ten minutes: no poll comes within a test; only the stream brings news. */
const NO_POLLS = { openMs: 600_000, listMs: 600_000 };
const BURST = 300;

/**
 * Fetches the client starts from now on (every query's; the stream is not a query), and
 * of them the retrievals of a conversation (which mark it read).
 */
function countFetches(queryClient: QueryClient): () => { all: number; retrievals: number } {
  const counts = { all: 0, retrievals: 0 };
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "fetch") return;
    counts.all++;
    if (event.query.queryKey[2] === "detail") counts.retrievals++;
  });
  return () => counts;
}

/** `count` messages from `api` into the conversation, 20 at a time, as a bot sends them. */
async function burst(api: Api, conversationId: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 20) {
    const sends = [];
    for (let i = start; i < Math.min(count, start + 20); i++) {
      sends.push(api.messages.send({ conversation_id: conversationId, message: `burst ${i}` }));
    }
    await Promise.all(sends);
  }
}

async function duringBurst(open: boolean) {
  // A bot's burst is within a real server's limits; this one has none, to send it at once.
  const server = await each.server({ rateLimit: false });
  const h = await each.start({ server, pollPace: NO_POLLS });
  await h.waitFor(() => liveMode(h.queryClient).get() === "live", "the stream up");
  if (open) await openFirst(h, "carol");
  else await h.waitFor((s) => s.includes("carol"), "carol's row");
  const carol = apiFor(h.server, 2);
  const withAlice = await conversationWith(carol, "alice");
  await h.waitFor(() => h.queryClient.isFetching() === 0, "the first fetches done");
  const fetches = countFetches(h.queryClient);
  const renders = h.renders();
  const started = Date.now();
  const sending = burst(carol, withAlice.id, BURST);
  // Keys pressed while the burst comes in are answered: in the open conversation what is
  // typed shows in the composer; over the list the help opens and closes.
  await h.waitFor((s) => s.includes("burst 1"), "the burst begun");
  if (open) {
    await h.type("typed during the burst");
    await h.waitFor((s) => s.includes("typed during the burst"), "the keys, during the burst");
  } else {
    await h.press("?");
    await h.waitFor((s) => s.includes("parley keys"), "the help, during the burst");
    await h.press("x");
    await h.waitFor((s) => !s.includes("parley keys"), "the help closed");
  }
  await sending;
  await h.waitFor((s) => s.includes(`burst ${BURST - 1}`), "the last message of the burst");
  // A row's preview is kept under one key or two (the one shown, the one coming): not one
  // per batch, each a page that every later message was added to.
  const previews = h.queryClient
    .getQueryCache()
    .findAll({ queryKey: keys.messages.previews(withAlice.id) });
  expect(previews.length).toBeLessThanOrEqual(2);
  return {
    renders: h.renders() - renders,
    fetches: fetches(),
    seconds: (Date.now() - started) / 1000,
  };
}

describe("a burst of 300 messages on the event stream", () => {
  it("with the list shown: keys answered, the row caught up, a few renders", async () => {
    const { renders, fetches } = await duringBurst(false);
    // One batch a frame: tens of renders for the burst, the help and the last row; before
    // batching it was one or more per message.
    expect(renders).toBeLessThan(BURST / 3);
    // The row's new preview comes with the events; the lists may be asked again once.
    expect(fetches.all).toBeLessThan(10);
  });

  it("into the open conversation: keys answered, the pane caught up, a few fetches", async () => {
    const { renders, fetches, seconds } = await duringBurst(true);
    expect(renders).toBeLessThan(BURST / 3);
    // Retrieving the open conversation marks the news read: at most once a second, however
    // long a loaded machine takes over the burst; nothing else is fetched for it.
    expect(fetches.retrievals).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(fetches.all - fetches.retrievals).toBeLessThan(5);
  });
});
