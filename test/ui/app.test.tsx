// The whole client, rendered by Ink against the real embedded server over HTTP, driven
// with the bytes a terminal sends, and read back from a terminal emulator. Each action
// is checked on screen and in the server's state afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { relayTo, type Seen, startForeignServer } from "../api/foreign-server.ts";
import { until } from "../wait.ts";
import { type Harness, KEYS, startHarness } from "./harness.tsx";
import {
  apiFor,
  conversationWith,
  newestMessage,
  openFirst,
  selectRow,
  sendOwn,
  sidebarNames,
} from "./helpers.ts";

let harness: Harness | undefined;
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const fn of cleanups.splice(0)) await fn();
});

describe("the client against the embedded server", () => {
  it("lists conversations pinned first, with previews, unread counts and the connection state", async () => {
    harness = await startHarness();
    const screen = await harness.waitFor(
      (s) => s.includes("● online") && /│▸📌 bob/u.test(s) && /●\d/.test(s),
      "the list with names and unread counts",
    );
    const names = sidebarNames(screen);
    expect(names.slice(0, 2).sort()).toEqual(["#design", "bob"]);
    expect(names).toContain("#team");
    expect(names).not.toContain("#archive-2024"); // All leaves archived conversations out
    expect(screen).toMatch(/parley · alice @ 127\.0\.0\.1:\d+/);
    expect(screen).toContain("1 All");
  });

  it("opens a conversation (marking it read) and sends a message: pending, then sent", async () => {
    harness = await startHarness();
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
    harness = await startHarness();
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
    harness = await startHarness();
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
    harness = await startHarness();
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
    harness = await startHarness();
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

  it("pins, mutes, archives and restores a conversation, and the filters follow", async () => {
    harness = await startHarness();
    const alice = apiFor(harness.server);
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await selectRow(harness, "#team");
    await harness.press("p");
    await harness.waitFor(
      (s) => /│▸📌[^\n]*#team/u.test(s) && s.includes("✓ Pinned #team."),
      "the pin icon, and the server's confirmation",
    );
    expect((await conversationWith(alice, "team")).is_pinned).toBe(true);
    await harness.press("m");
    await harness.waitFor(
      (s) => /│▸📌🔕[^\n]*#team/u.test(s) && s.includes("✓ Muted #team."),
      "the mute icon, and the server's confirmation",
    );
    expect((await conversationWith(alice, "team")).is_muted).toBe(true);

    await harness.press("3");
    await harness.waitFor(
      (s) => sidebarNames(s).includes("#team") && !sidebarNames(s).includes("bob"),
      "Muted",
    );
    await harness.press("1");
    await harness.waitFor((s) => sidebarNames(s).includes("bob"), "All");
    await selectRow(harness, "#team");
    await harness.press("a");
    await harness.waitFor(
      (s) => !sidebarNames(s).includes("#team") && s.includes("✓ Archived #team."),
      "#team gone from All, and the server's confirmation",
    );
    expect((await conversationWith(alice, "team")).archived_at).not.toBeNull();
    await harness.press("4");
    await harness.waitFor((s) => sidebarNames(s).includes("#team"), "#team in Archived");
    await selectRow(harness, "#team");
    await harness.press("a");
    await harness.waitFor(
      (s) => !sidebarNames(s).includes("#team") && s.includes("✓ Restored #team."),
      "#team restored, and the server's confirmation",
    );
    expect((await conversationWith(alice, "team")).archived_at).toBeNull();
    await harness.press("2");
    await harness.waitFor(
      (s) => sidebarNames(s).includes("#team") && sidebarNames(s).includes("bob"),
      "Pinned",
    );
  });

  it("deletes a conversation only after y", async () => {
    harness = await startHarness();
    const alice = apiFor(harness.server);
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await selectRow(harness, "#team");
    const team = await conversationWith(alice, "team");
    await harness.press("D");
    await harness.waitFor((s) => s.includes("Delete the conversation with #team"), "the question");
    await harness.press(KEYS.escape);
    expect((await alice.conversations.get(team.id)).id).toBe(team.id);
    await harness.press("D", "y");
    await harness.waitFor((s) => !sidebarNames(s).includes("#team"), "#team gone");
    await expect(alice.conversations.get(team.id)).rejects.toMatchObject({ status: 404 });
  });

  it("starts a conversation with a contact id, suggesting contacts seen so far", async () => {
    const server = await startServer({ port: 0, demo: true, demoConversations: false });
    cleanups.push(() => server.close());
    harness = await startHarness({ server });
    await harness.waitFor((s) => s.includes("No conversations"), "an empty list");
    await harness.press("n");
    await harness.waitFor((s) => s.includes("new conversation with:"), "the prompt");
    await harness.type("ct_dave");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("Message ct_dave") || s.includes("Message dave"),
      "the new conversation",
    );
    const list = await apiFor(server).conversations.list();
    expect(list.data.map((c) => c.contact_id)).toEqual(["ct_dave"]);
  });

  it("shows every key in the help overlay, and any key closes it", async () => {
    harness = await startHarness();
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.press("?");
    const first = await harness.waitFor((s) => s.includes("parley keys"), "help");
    await harness.press(KEYS.pageDown);
    const rest = await harness.waitFor((s) => s.includes("(end)"), "the end of the help");
    const help = first + rest;
    for (const text of [
      "Tab / Shift+Tab",
      "filter: All, Pinned, Muted, Archived",
      "react (again on the same one removes yours)",
      "copy the text",
      "Ctrl+W, Ctrl+U, Ctrl+K",
      "quit",
    ]) {
      expect(help).toContain(text);
    }
    await harness.press("x");
    await harness.waitFor((s) => !s.includes("parley keys"), "help closed");
  });

  it("searches conversations by name", async () => {
    harness = await startHarness();
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.press("/");
    await harness.type("des");
    await harness.waitFor((s) => sidebarNames(s).join() === "#design", "only #design");
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => sidebarNames(s).includes("#team"), "the whole list back");
  });

  it("keeps a failed send on screen with its text, and Enter retries it without a duplicate", async () => {
    let failing = true;
    const server = await startServer({
      port: 0,
      demo: true,
      demoReplies: false,
      faults: ({ method, path }) => {
        if (failing && method === "POST" && path === "/v1/messages") throw new Error("injected");
      },
    });
    cleanups.push(() => server.close());
    harness = await startHarness({ server });
    await openFirst(harness, "bob");
    await harness.type("important words");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("not sent") && s.includes("important words"),
      "the failed send",
    );
    expect(harness.screen()).toContain("Not sent");
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

  /** A client whose server is down (its port free), and a way to bring that server back. */
  async function clientOfADeadServer() {
    const dir = mkdtempSync(join(tmpdir(), "parley-down-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, "server.db");
    const first = await startServer({ port: 0, db, demo: true, demoReplies: false });
    const { port, url } = first;
    const token = first.demoUsers[0]!.token;
    await first.close();
    harness = await startHarness({ server: first, baseUrl: url, token });
    const restart = async () => {
      const again = await startServer({ port, db, demo: true, demoReplies: false });
      cleanups.push(() => again.close());
    };
    return { client: harness, url, restart };
  }

  it("says a server that is down is unreachable, retries, and recovers when it returns", async () => {
    const { client, url, restart } = await clientOfADeadServer();
    await client.waitFor(
      (s) => s.includes(`Cannot reach ${url}`) && s.includes("offline"),
      "the offline screen",
    );
    await restart();
    await client.waitFor((s) => s.includes("● online") && s.includes("#team"), "recovery", 40_000);
  }, 60_000);

  it("retries at once with Ctrl+R instead of waiting out the back-off", async () => {
    const { client, restart } = await clientOfADeadServer();
    await client.waitFor((s) => s.includes("Ctrl+R: now"), "the offline screen");
    await restart();
    // The list's next try by itself is 10 s (±15%) after its first failure: well after this.
    await client.press(KEYS.ctrlR);
    await client.waitFor((s) => s.includes("● online") && s.includes("#team"), "online", 6000);
  }, 30_000);

  it("draws the whole screen again with Ctrl+L", async () => {
    harness = await startHarness();
    await harness.waitFor(
      (s) => s.includes("● online") && s.includes("●2") && s.includes("bob: confirmed, thanks"),
      "the list",
    );
    const written = harness.written().length;
    await harness.press(KEYS.ctrlL);
    // From a clean screen, a whole frame, not a diff: every row of the list comes again.
    const redraw = () => {
      const after = harness!.written().slice(written);
      return after.slice(Math.max(0, after.lastIndexOf("\x1b[2J")));
    };
    await harness.waitFor(
      () => /^\x1b\[2J[\s\S]*#team[\s\S]*#oncall/.test(redraw()),
      "a clean screen, then a whole frame",
    );
    // What was drawn since the clean screen, alone on a blank terminal, is the whole screen.
    // Compared with itself, not with the screen before: a minute that turns meanwhile
    // ("2m" to "3m") changes both alike.
    let replayed = "";
    await until(
      async () => {
        replayed = await harness!.screenOf(redraw());
        return replayed === harness!.screen();
      },
      "the redraw alone to give the whole screen",
      { detail: () => `Screen:\n${harness!.screen()}\nThe redraw alone:\n${replayed}` },
    );
  });

  it("says the token was rejected and how to set one", async () => {
    harness = await startHarness({ token: "not-a-token" });
    await harness.waitFor(
      (s) => s.includes("rejected the token") && s.includes("PARLEY_TOKEN"),
      "the 401 screen",
    );
  });

  it("never writes a hostile message's escape sequences to the terminal", async () => {
    harness = await startHarness();
    const bob = apiFor(harness.server, 1);
    const chat = await conversationWith(bob, "alice");
    const hostile = "evil\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b]0;title\x07\u009b31m\u202Etxt.exe done";
    await bob.messages.send({ conversation_id: chat.id, message: hostile });
    await openFirst(harness, "bob");
    const screen = await harness.waitFor(
      (s) => s.includes("evil") && s.includes("done"),
      "the message",
    );
    expect(screen).toMatch(/evil␛+/);
    const written = harness.written();
    expect(written).not.toContain("\x1b]52");
    expect(written).not.toContain("\x1b]0;");
    expect(written).not.toContain("\u009b");
    expect(written).not.toContain("\u202E");
    expect(harness.clipboard).toEqual([]);
  });

  it("follows resizes and says when the terminal is too small", async () => {
    harness = await startHarness({ columns: 120, rows: 40 });
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.resize(80, 24);
    // The terminal keeps the old frame, shifted, until the new one is drawn: the old status
    // bar can sit on row 24 before that. The new frame has the header on row 1 as well.
    let screen = await harness.waitFor(
      (s) => s.split("\n")[23]!.includes("online") && s.split("\n")[0]!.includes("parley"),
      "the status bar on row 24 and the header on row 1",
    );
    expect(screen.split("\n")[0]).toContain("parley · alice");
    await harness.resize(50, 12);
    await harness.waitFor((s) => s.includes("terminal too small"), "the too-small note");
    await harness.resize(100, 30);
    screen = await harness.waitFor((s) => s.split("\n")[29]!.includes("online"), "the layout back");
    expect(screen).not.toContain("terminal too small");
  });

  it("learns who you are from a conversation with one contact, on a server that does not say", async () => {
    harness = await startHarness({ username: null });
    // Before anything is sent: the sender in the conversation with bob who is not bob.
    await harness.waitFor((s) => s.includes("parley · alice @"), "alice in the header");
    expect(harness.session.me.get()).toBe("alice");
    await openFirst(harness, "bob");
    await harness.waitFor((s) => /│ you · \d\d:\d\d/.test(s), "alice's own messages as you");
  });

  it("keeps the selected message on screen when the terminal gets smaller", async () => {
    harness = await startHarness({ columns: 120, rows: 40 });
    await openFirst(harness, "#team");
    await harness.press(KEYS.escape);
    // Up 25 messages: the selection sits near the top of the tall pane.
    await harness.press(..."k".repeat(25));
    const marked = (s: string) => s.split("\n").filter((l) => l.includes("│▌"));
    const before = await harness.waitFor((s) => marked(s).length > 0, "a selected message");
    const header = /│▌([^│]*)│/.exec(marked(before)[0]!)![1]!.trim();
    await harness.resize(80, 24);
    await harness.waitFor(
      (s) => s.split("\n")[23]!.includes("online") && marked(s).some((l) => l.includes(header)),
      `the selected message (${header}) still on screen`,
    );
  });

  it("shows no colour with NO_COLOR, and the selection stays visible", async () => {
    harness = await startHarness({ env: { NO_COLOR: "1" } });
    await harness.waitFor((s) => s.includes("#team"), "the list");
    const colours = [...harness.written().matchAll(/\x1b\[([\d;]*)m/g)].filter(([, params]) =>
      params!.split(";").some((p) => /^(3[0-8]|4[0-8]|9\d|10\d)$/.test(p)),
    );
    expect(colours).toEqual([]);
    // Focus shows as a double border, the selection as a marker.
    expect(harness.screen()).toMatch(/║▸/);
  });

  it("rings and notifies for a new message elsewhere, stripped of control characters, never for a muted one", async () => {
    harness = await startHarness();
    const alice = apiFor(harness.server);
    const bob = apiFor(harness.server, 1);
    const carol = apiFor(harness.server, 2);
    await harness.waitFor((s) => s.includes("● online") && s.includes("#team"), "the list");
    // The first inbox answer is history: only what arrives after it is news.
    await harness.waitFor(
      () => harness!.queryClient.getQueryData(keys.messages.inbox()) !== undefined,
      "the first inbox answer",
    );
    const withBob = await conversationWith(alice, "bob");
    await alice.conversations.update(withBob.id, { is_muted: true });
    await bob.messages.send({
      conversation_id: (await conversationWith(bob, "alice")).id,
      message: "muted news",
    });
    const withCarol = await conversationWith(carol, "alice");
    await carol.messages.send({
      conversation_id: withCarol.id,
      message: "lunch?\x07\x1b]777;notify;fake;pwned\x07\x1b[2J",
    });
    await harness.waitFor(
      () => harness!.sequences.some((s) => s.includes("777;notify")),
      "a notification",
      15_000,
    );
    const notifications = harness.sequences.filter((s) => s.includes("]777;") || s.includes("]9;"));
    expect(harness.sequences).toContain("\x07");
    expect(notifications.join("")).toContain("carol");
    expect(notifications.join("")).not.toContain("muted news");
    for (const n of notifications) {
      // One sequence: ESC ] … BEL, with nothing inside that could end it or start another.
      expect(n).toMatch(/^\x1b\][^\x00-\x1f\x7f-\x9f]*\x07$/);
      expect(n.match(/;/g)?.length ?? 0).toBeLessThanOrEqual(3);
    }
  }, 30_000);

  it("copies the selected message to the clipboard with y (OSC 52)", async () => {
    harness = await startHarness();
    await openFirst(harness, "bob");
    await harness.press(KEYS.escape, "y");
    await harness.waitFor((s) => s.includes("to the clipboard"), "the confirmation");
    expect(harness.clipboard).toEqual(["I think we're ready if QA signs off tomorrow"]);
  });

  it("loads older history at the top, and says N new when scrolled up", async () => {
    harness = await startHarness();
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
    const server = await startServer({ port: 0, demo: true, demoReplies: false });
    cleanups.push(() => server.close());
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
    cleanups.push(() => relay.close());
    // Requests may take long here: the held page must not time out and be asked again.
    harness = await startHarness({ server, baseUrl: relay.url, timeoutMs: 60_000 });
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

  it("edits by grapheme and takes a bracketed paste of several lines as one draft", async () => {
    harness = await startHarness();
    const alice = apiFor(harness.server);
    await openFirst(harness, "bob");
    await harness.type("ok 👍🏽");
    await harness.press(KEYS.backspace);
    await harness.waitFor((s) => /│ ok\s+│/.test(s), "the emoji removed whole");
    await harness.press(KEYS.backspace, KEYS.backspace, KEYS.backspace);
    await harness.paste("first line\r\nsecond line\rthird");
    await harness.waitFor(
      (s) => s.includes("first line") && s.includes("second line"),
      "a multi-line draft",
    );
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => !s.includes("sending…") && s.includes("third"),
      "the message sent",
    );
    const sent = await newestMessage(alice, "bob");
    expect(sent?.message).toBe("first line\nsecond line\nthird");
  });

  it("acts on every key of one read: a held key, and a dialog opened by the key before", async () => {
    harness = await startHarness();
    await harness.waitFor((s) => /│▸📌 bob/u.test(s) && s.includes("#team"), "the list");
    await harness.press("jj"); // a held j arrives as one read
    await harness.waitFor((s) => /│▸#team/u.test(s), "two rows down");
    await harness.press("?j"); // open the help, then j scrolls it: the sidebar must not move
    await harness.waitFor((s) => s.includes("parley keys"), "the help");
    await harness.press("x");
    await harness.waitFor((s) => /│▸#team/u.test(s), "the help closed, the cursor where it was");
  });

  it("takes Esc and a letter in one read as Esc, then the letter (as over a slow link)", async () => {
    harness = await startHarness();
    await openFirst(harness, "bob");
    await harness.press("\x1br"); // Esc to the messages, r to react
    await harness.waitFor(
      (s) => s.includes("1👍") && s.includes("←→ Enter · Esc"),
      "the reaction picker",
    );
  });

  it("takes Esc and ↑ in one read as Esc, then ↑ (what Ink reads as Alt+↑)", async () => {
    harness = await startHarness();
    await openFirst(harness, "bob");
    await harness.press("\x1b\x1b[A");
    const marked = (s: string) => s.split("\n").filter((l) => /[│║]▌/.test(l));
    const screen = await harness.waitFor(
      (s) => marked(s).some((l) => l.includes("Ship it Friday?")),
      "the messages pane, one message up from the newest",
    );
    expect(marked(screen).join("\n")).not.toContain("QA signs off");
  });

  it("takes Esc and a letter in one read as Esc, then the letter, also when Esc closes a dialog", async () => {
    harness = await startHarness();
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.press("?");
    await harness.waitFor((s) => s.includes("parley keys"), "the help");
    await harness.press("\x1b/"); // Esc closes the help, / opens the search
    await harness.waitFor((s) => !s.includes("parley keys"), "the help closed");
    await harness.type("des");
    await harness.waitFor((s) => sidebarNames(s).join() === "#design", "the search, typed into");
  });

  it("keeps each session's notices to itself (parley ssh runs many in one process)", async () => {
    harness = await startHarness();
    const bobScreen = await startHarness({ server: harness.server, user: 1 });
    cleanups.push(() => bobScreen.close());
    await openFirst(harness, "bob");
    await harness.press(KEYS.escape, "y");
    await harness.waitFor((s) => s.includes("to the clipboard"), "alice's confirmation");
    await bobScreen.waitFor((s) => s.includes("● online"), "bob's client");
    expect(bobScreen.screen()).not.toContain("clipboard");
  });

  it("takes text typed ahead in one read whole, and its Enter sends it", async () => {
    harness = await startHarness();
    const alice = apiFor(harness.server);
    await openFirst(harness, "bob");
    await harness.press("typed ahead over a slow link\r");
    await harness.waitFor(
      (s) => s.includes("typed ahead over a slow link") && !s.includes("sending…"),
      "the message sent",
    );
    const sent = await newestMessage(alice, "bob");
    expect(sent?.message).toBe("typed ahead over a slow link");
  });
});
