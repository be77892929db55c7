import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { relayTo, type Seen, startForeignServer } from "../api/foreign-server.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, newestMessage, openFirst, sendOwn } from "./helpers.ts";

const each = harnessEachTest();

describe("the open conversation", () => {
  it("opens a conversation (marking it read) and sends a message: pending, then sent", async () => {
    const harness = await each.start();
    const bob = apiFor(harness.server, 1);
    await openFirst(harness, "bob");
    await harness.type("hello from the test");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => /you · \d\d:\d\d[^\n]*\n[^\n]*hello from the test/.test(s),
      "the sent message",
    );
    await harness.waitFor((s) => !s.includes("sending…"), "the send to finish");
    const received = await newestMessage(bob, "alice");
    expect(received?.message).toBe("hello from the test");
    expect(received?.contact.username).toBe("alice");
    const alice = apiFor(harness.server);
    const opened = await conversationWith(alice, "bob");
    expect(opened.last_opened_at).not.toBeNull();
    // The composer is empty again, and the draft is not left behind.
    expect(harness.screen()).toContain("Message bob · Enter sends");
  });

  it("keeps a draft per conversation while switching", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await harness.type("half a thought");
    await harness.press(KEYS.escape, KEYS.escape, KEYS.down, KEYS.enter);
    await harness.waitFor((s) => s.includes("Message #design"), "the second conversation");
    // Where the draft waits shows in bob's row, in place of his last message.
    const elsewhere = await harness.waitFor(
      (s) => s.includes("draft: half a thought"),
      "the draft in bob's row",
    );
    expect(elsewhere.split("\n").filter((line) => line.includes("draft:"))).toHaveLength(1);
    await harness.press(KEYS.escape, KEYS.escape, KEYS.up, KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("half a thought") && !s.includes("draft:"),
      "the draft back in the composer, and not in the row",
    );
  });

  it("reacts with the picker and removes the reaction with the same pick", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    const newest = await newestMessage(alice, "bob");
    await openFirst(harness, "bob");
    await harness.press(KEYS.escape); // to the messages; the newest is selected
    await harness.press("r");
    await harness.waitFor((s) => s.includes("react ") && s.includes("1👍"), "the picker");
    await harness.press(KEYS.enter);
    // The reaction shows at once, "saving…" until the server has it.
    await harness.waitFor((s) => s.includes("👍 1") && !s.includes("saving…"), "the reaction");
    let message = await alice.messages.get(newest!.id);
    expect(message.reactions).toContainEqual({ thumbsup: ["alice"] });
    await harness.press("r", KEYS.enter);
    await harness.waitFor(
      (s) => !s.includes("👍 1") && !s.includes("saving…"),
      "the reaction gone",
    );
    message = await alice.messages.get(newest!.id);
    expect(message.reactions.some((r) => "thumbsup" in r)).toBe(false);
  });

  it("edits your last message with ↑ and deletes it after asking", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    await openFirst(harness, "bob");
    await sendOwn(harness, "first version");
    await harness.press(KEYS.up);
    await harness.waitFor((s) => s.includes("editing your message"), "edit mode");
    await harness.press("\x15"); // Ctrl+U clears the line
    await harness.type("second version");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("second version") && s.includes("edited") && !s.includes("saving…"),
      "the edit, saved",
    );
    const edited = await newestMessage(alice, "bob");
    expect(edited?.message).toBe("second version");
    expect(edited?.updated_at).not.toBeNull();

    await harness.press(KEYS.escape, "d");
    await harness.waitFor((s) => s.includes("Delete this message for everyone?"), "the question");
    await harness.press("n");
    await harness.waitFor((s) => s.includes("Kept."), "kept");
    expect((await alice.messages.get(edited!.id)).message).toBe("second version");
    await harness.press("d", "y");
    await harness.waitFor(
      (s) => !s.includes("second version") && s.includes("Message deleted."),
      "the message gone",
    );
    await expect(alice.messages.get(edited!.id)).rejects.toMatchObject({ status: 404 });
  });

  it("pins and unpins a message in the conversation", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    await openFirst(harness, "#team");
    await harness.press(KEYS.escape, KEYS.up, KEYS.up, "P");
    await harness.waitFor((s) => s.includes("Pinned the message in #team"), "the confirmation");
    const chat = await conversationWith(alice, "team");
    expect(chat.pinned_message_id).not.toBeNull();
    const pinned = await alice.messages.get(chat.pinned_message_id!);
    const first = pinned.message.slice(0, 20);
    expect(harness.screen()).toContain(`📌 ${first}`);
    await harness.press("P");
    await harness.waitFor((s) => s.includes("Unpinned the message in #team"), "unpinned");
    expect((await conversationWith(alice, "team")).pinned_message_id).toBeNull();
  });

  it("keeps a failed send on screen with its text, and Enter retries it without a duplicate", async () => {
    let failing = true;
    const server = await each.server({
      faults: ({ method, path }) => {
        if (failing && method === "POST" && path === "/v1/messages") throw new Error("injected");
      },
    });
    const harness = await each.start({ server });
    await openFirst(harness, "bob");
    await harness.type("important words");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("not sent") && s.includes("important words"),
      "the failed send",
    );
    // Kept with its text, and the server's failure said in the status line.
    expect(harness.screen()).toContain("Something went wrong on the server");
    failing = false;
    await harness.press(KEYS.escape, KEYS.enter);
    await harness.waitFor(
      (s) => !s.includes("not sent") && s.includes("important words"),
      "the retry",
    );
    const alice = apiFor(server);
    const chat = await conversationWith(alice, "bob");
    const page = await alice.messages.list({ conversation_id: chat.id, limit: 5 });
    expect(page.data.filter((m) => m.message === "important words")).toHaveLength(1);
  });

  it("learns who you are from a conversation with one contact, on a server that does not say", async () => {
    const harness = await each.start({ username: null });
    // Before anything is sent: the sender in the conversation with bob who is not bob.
    await harness.waitFor((s) => s.includes("parley · alice @"), "alice in the header");
    expect(harness.session.me.get()).toBe("alice");
    await openFirst(harness, "bob");
    await harness.waitFor((s) => /│ you · \d\d:\d\d/.test(s), "alice's own messages as you");
  });

  it("copies the selected message to the clipboard with y (OSC 52)", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await harness.press(KEYS.escape, "y");
    await harness.waitFor((s) => s.includes("to the clipboard"), "the confirmation");
    expect(harness.clipboard).toEqual(["I think we're ready if QA signs off tomorrow"]);
  });

  it("loads older history at the top, and says N new when scrolled up", async () => {
    const harness = await each.start();
    const bob = apiFor(harness.server, 1);
    await openFirst(harness, "#team");
    await harness.press(KEYS.escape);
    const loaded = () =>
      harness!.queryClient
        .getQueriesData<{ pages: { data: unknown[] }[] }>({
          queryKey: ["parley", "messages", "list"],
        })
        .reduce((n, [, d]) => n + (d?.pages.reduce((m, p) => m + p.data.length, 0) ?? 0), 0);
    const before = loaded();
    await harness.press("g");
    await harness.waitFor(() => loaded() > before, "an older page");
    const team = await conversationWith(bob, "team");
    await bob.messages.send({ conversation_id: team.id, message: "news while you read old ones" });
    await harness.waitFor((s) => s.includes("1 new ↓"), "the new-message count", 10_000);
    await harness.press("G");
    await harness.waitFor(
      (s) => s.includes("news while you read old ones") && !s.includes("new ↓"),
      "back at the bottom",
    );
  }, 30_000);

  it("keeps a message that arrives while an older page is loading", async () => {
    // The real server behind a relay that holds the first older page of messages until the
    // open conversation's poll has brought the news: the page lands after the news.
    const server = await each.server();
    const forward = (req: Seen, res: ServerResponse) => relayTo(server.url, req, res);
    let held: (() => void) | undefined;
    // The news as the open conversation's poll answered it, each time.
    const newsPolls: string[] = [];
    const relay = await startForeignServer((req, res) => {
      const olderMessages =
        req.url.startsWith("/v1/messages?") && req.url.includes("starting_after");
      if (olderMessages && !held) {
        held = () => void forward(req, res).catch(() => {});
        return;
      }
      void forward(req, res).then((body) => {
        if (req.url.includes("conversation_id=") && body?.includes("news during the older page")) {
          newsPolls.push(body);
        }
      });
    });
    each.afterTest(() => relay.close());
    // Requests may take long here: the held page must not time out and be asked again.
    const harness = await each.start({ server, baseUrl: relay.url, timeoutMs: 60_000 });
    const bob = apiFor(server, 1);
    await openFirst(harness, "#team");
    await harness.press(KEYS.escape, "g");
    await harness.waitFor(
      (s) => held !== undefined && s.includes("loading older…"),
      "an older page held",
    );
    const team = await conversationWith(bob, "team");
    await bob.messages.send({ conversation_id: team.id, message: "news during the older page" });
    const mine = await conversationWith(apiFor(server), "team");
    const newsPolled = () =>
      JSON.stringify(harness!.queryClient.getQueryData(keys.messages.latest(mine.id))).includes(
        "news during the older page",
      );
    // The news in the polled newest page, and two polls in a row answered the same (the news
    // read, nothing more to change): after the older page lands, no poll brings anything new.
    await harness.waitFor(
      () => newsPolled() && newsPolls.length >= 2 && newsPolls.at(-1) === newsPolls.at(-2),
      "the news polled, merged and settled",
    );
    held!();
    await harness.waitFor(() => !harness!.screen().includes("loading older…"), "the older page");
    await harness.waitFor((s) => s.includes("1 new ↓"), "the count");
    await harness.press("G");
    await harness.waitFor((s) => s.includes("news during the older page"), "the news on screen");
  }, 30_000);
});
