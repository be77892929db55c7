// News from the server's event stream, on screen: the real embedded server and the real
// client session, with polls paced so slow that only an event can bring the news in time.
// And the same client against a server without events, which polls as before.
import type { ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { liveMode } from "../../src/ui/queries/live.ts";
import { QUIET_POLLS } from "../../src/ui/queries/polling.ts";
import { relayTo, type Seen, startForeignServer } from "../api/foreign-server.ts";
import { pause, until } from "../wait.ts";
import { type Harness, harnessEachTest } from "./harness.tsx";
import { apiFor, conversationWith, openFirst } from "./helpers.ts";

const each = harnessEachTest();
/** Ten minutes: no poll comes within a test, live or not. */
const NO_POLLS = { openMs: 600_000, listMs: 600_000 };

async function helpSays(h: Harness, words: string) {
  await h.press("?");
  await h.waitFor((s) => s.includes(`news: ${words}`), `the help saying "${words}"`);
  await h.press("x");
  await h.waitFor((s) => !s.includes("parley keys"), "the help closed");
}

/** The real server behind a relay that has no /v1/events, and what the relay saw. */
async function serverWithoutEvents() {
  const server = await each.server();
  const relay = await startForeignServer(async (req: Seen, res: ServerResponse) => {
    if (req.url.startsWith("/v1/events")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":{"type":"invalid_request","message":"No such route."}}');
      return;
    }
    await relayTo(server.url, req, res);
  });
  each.afterTest(() => relay.close());
  return { server, relay };
}

/** A client of `serverWithoutEvents` at `pollPace`, once it knows there is no stream. */
async function pollingClient(pollPace?: { openMs: number; listMs: number }) {
  const { server, relay } = await serverWithoutEvents();
  const h = await each.start({ server, baseUrl: relay.url, ...(pollPace ? { pollPace } : {}) });
  await h.waitFor(() => liveMode(h.queryClient).get() === "none", "no stream");
  return { server, relay, h };
}

describe("with the event stream", () => {
  it("shows a message, its edit and its deletion in the open conversation", async () => {
    const h = await each.start({ pollPace: NO_POLLS });
    await h.waitFor(() => liveMode(h.queryClient).get() === "live", "the stream up");
    await helpSays(h, "live");
    await openFirst(h, "bob");
    const bob = apiFor(h.server, 1);
    const withAlice = await conversationWith(bob, "alice");
    const sent = await bob.messages.send({
      conversation_id: withAlice.id,
      message: "straight from the stream",
    });
    await h.waitFor((s) => s.includes("straight from the stream"), "bob's message");
    await bob.messages.update(sent.id, { message: "edited on the stream" });
    await h.waitFor((s) => s.includes("edited on the stream"), "the edit");
    await bob.messages.delete(sent.id);
    await h.waitFor((s) => !s.includes("edited on the stream"), "the deletion");
  });

  it("shows another conversation's news in its row, and rings the bell", async () => {
    const errors = vi.spyOn(console, "error");
    each.afterTest(() => errors.mockRestore());
    const h = await each.start({ pollPace: NO_POLLS });
    await openFirst(h, "bob");
    await h.waitFor(() => liveMode(h.queryClient).get() === "live", "the stream up");
    const carol = apiFor(h.server, 2);
    const withAlice = await conversationWith(carol, "alice");
    const bells = h.sequences.filter((s) => s.includes("\x07")).length;
    await carol.messages.send({ conversation_id: withAlice.id, message: "row news from carol" });
    const screen = await h.waitFor(
      (s) => s.includes("row news from carol"),
      "carol's message as her row's preview",
    );
    expect(screen.split("\n").some((line) => line.includes("carol"))).toBe(true);
    await h.waitFor(() => h.sequences.filter((s) => s.includes("\x07")).length > bells, "the bell");
    // A row's new preview query, added as the row renders, once updated the screen then.
    expect(errors.mock.calls.map((call) => String(call[0]))).not.toContainEqual(
      expect.stringContaining("Cannot update a component"),
    );
  });

  it("puts a conversation started elsewhere into the list", async () => {
    const h = await each.start({ pollPace: NO_POLLS, user: 1 });
    await h.waitFor(() => liveMode(h.queryClient).get() === "live", "the stream up");
    const frank = apiFor(h.server, 5);
    const listed = await apiFor(h.server, 1).conversations.list({ limit: 100 });
    expect(listed.data.some((c) => c.contact_id === "ct_frank")).toBe(false);
    const started = await frank.conversations.create({ contact_id: "ct_bob" });
    await frank.messages.send({ conversation_id: started.id, message: "hi bob, frank here" });
    await h.waitFor((s) => s.includes("frank"), "frank's conversation in bob's list");
  });
});

describe("without an event stream", () => {
  it("polls as before, and says so", async () => {
    const { server, relay, h } = await pollingClient();
    await helpSays(h, "polling every 0.4 s");
    await openFirst(h, "bob");
    const bob = apiFor(server, 1);
    const withAlice = await conversationWith(bob, "alice");
    await bob.messages.send({ conversation_id: withAlice.id, message: "polled the old way" });
    await h.waitFor((s) => s.includes("polled the old way"), "bob's message, polled");
    expect(relay.seen.filter((r) => r.url.startsWith("/v1/events"))).toHaveLength(1);
  });

  it("renders nothing for polls that bring nothing new", async () => {
    const { relay, h } = await pollingClient({ openMs: 300, listMs: 300 });
    await openFirst(h, "bob");
    // Past the polls that mark bob's conversation read and bring it back so (its retrieval
    // comes at most once a second): settled once two polls' time goes by without a render.
    await until(
      async () => {
        const before = h.renders();
        await pause(600); // two polls' time in which nothing must render
        return h.renders() === before;
      },
      "the screen settled",
      { timeoutMs: 15_000 },
    );
    const renders = h.renders();
    const asked = relay.seen.length;
    const listPolls = () =>
      relay.seen.slice(asked).filter((r) => r.url.startsWith("/v1/conversations?"));
    await until(() => listPolls().length >= 4, "four polls of the list");
    expect(listPolls().length).toBeGreaterThanOrEqual(4);
    // The minute clock may tick once in the window; a poll's answer, or its being on its
    // way (a list's isFetching read as it renders), must not render the screen again.
    expect(h.renders() - renders).toBeLessThanOrEqual(1);
  });

  it("marks news read as it arrives, without polling the open conversation itself", async () => {
    // The lists' pace (which the open conversation also follows) never comes in the test.
    const { server, relay, h } = await pollingClient({ openMs: 300, listMs: 600_000 });
    await openFirst(h, "bob");
    const bob = apiFor(server, 1);
    const withAlice = await conversationWith(bob, "alice");
    const sent = await bob.messages.send({ conversation_id: withAlice.id, message: "read me" });
    await h.waitFor((s) => s.includes("read me"), "bob's message, polled");
    const alice = apiFor(server);
    await until(async () => {
      const opened = (await conversationWith(alice, "bob")).last_opened_at ?? 0;
      return opened >= (sent.created_at ?? 0) || undefined;
    }, "alice's conversation with bob opened since bob's message");
    // Retrieved on opening and once for the news: not every 0.3 s with the newest page.
    const polls = await until(() => {
      const pages = relay.seen.filter((r) => r.url.includes(`conversation_id=${withAlice.id}`));
      return pages.length >= 8 ? pages : undefined;
    }, "eight polls of the newest page");
    const retrievals = relay.seen.filter(
      (r) => r.url.split("?")[0] === `/v1/conversations/${withAlice.id}`,
    );
    expect(polls.length).toBeGreaterThanOrEqual(8);
    expect(retrievals.length).toBeLessThanOrEqual(3);
  });

  it("follows the open conversation through its list, not by marking it opened again", async () => {
    const { server, relay, h } = await pollingClient({ openMs: 600_000, listMs: 200 });
    await openFirst(h, "bob");
    const bob = apiFor(server, 1);
    const withAlice = await conversationWith(bob, "alice");
    const retrievals = () =>
      relay.seen.filter((r) => r.url.split("?")[0] === `/v1/conversations/${withAlice.id}`);
    const lists = () => relay.seen.filter((r) => r.url.startsWith("/v1/conversations?"));
    const before = lists().length;
    await until(() => lists().length >= before + 10 || undefined, "ten more polls of the lists");
    // Retrieved when opened; each retrieval marks it opened (a write, and a new answer to
    // its list): the lists' polls, which hold it, are how it is followed.
    expect(retrievals()).toHaveLength(1);
    // A pin bob makes comes with the list's poll to the open conversation's header.
    const page = await bob.messages.list({ conversation_id: withAlice.id, limit: 1 });
    const message = page.data[0]!;
    await bob.conversations.update(withAlice.id, { pinned_message_id: message.id });
    const words = message.message.split(" ").slice(0, 3).join(" ");
    await h.waitFor((s) => s.includes(`📌 ${words}`), "bob's pin in the header");
    expect(retrievals()).toHaveLength(1);
  });

  it("polls a quiet conversation at half its pace, and its news still comes", async () => {
    const openMs = 100;
    const { server, relay, h } = await pollingClient({ openMs, listMs: 600_000 });
    await openFirst(h, "bob");
    const bob = apiFor(server, 1);
    const withAlice = await conversationWith(bob, "alice");
    // The polls of its newest page: after the history's first page (limit=50) and the
    // newest page's first fetch (the rows' previews come before both).
    const polls = () => {
      const seen = relay.seen.filter((r) => r.url.includes(`conversation_id=${withAlice.id}`));
      const history = seen.findIndex((r) => r.url.includes("limit=50"));
      return history < 0 ? [] : seen.slice(history + 2);
    };
    // QUIET_POLLS that brought nothing, and more after them (a row's preview fetched
    // again meanwhile would be one more in the count): the last three waits are quiet ones.
    const seen = await until(
      () => (polls().length >= QUIET_POLLS + 6 ? polls() : undefined),
      "the newest page polled through a quiet spell",
    );
    const quiet = seen.slice(-4);
    // Timers never fire early: at twice the pace less its jitter (15 %), however busy.
    for (let i = 1; i < quiet.length; i++) {
      expect(quiet[i]!.at - quiet[i - 1]!.at).toBeGreaterThanOrEqual(openMs * 1.7);
    }
    await bob.messages.send({ conversation_id: withAlice.id, message: "after the quiet" });
    await h.waitFor((s) => s.includes("after the quiet"), "bob's message after the quiet spell");
  });

  it("fetches what is on screen at once when the stream drops", async () => {
    const server = await each.server();
    // A stream that the relay holds open (live) until the test drops it; any stream asked
    // for after that is never answered.
    let stream: ServerResponse | undefined;
    const relay = await startForeignServer(async (req: Seen, res: ServerResponse) => {
      if (!req.url.startsWith("/v1/events")) return void (await relayTo(server.url, req, res));
      if (stream) return;
      stream = res;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": open\n\n");
    });
    each.afterTest(() => relay.close());
    const h = await each.start({ server, baseUrl: relay.url, pollPace: NO_POLLS });
    await h.waitFor(() => liveMode(h.queryClient).get() === "live", "the stream up");
    // What the stream's opening asked for has come back: nothing else is on its way.
    await until(() => h.queryClient.isFetching() === 0, "the refetch on opening done");
    const lists = () => relay.seen.filter((r) => r.url.startsWith("/v1/conversations?")).length;
    const before = lists();
    stream!.destroy();
    // Polls come every ten minutes here: only the drop itself can ask for the list now.
    await until(() => lists() > before, "the list asked for again after the drop");
  });
});
