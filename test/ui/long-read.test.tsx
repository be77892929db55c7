// Reading what a conversation holds, against the embedded server: a message taller than the
// pane from its first word to its last, the "new" divider and the next unread conversation,
// and search through the whole history of the open conversation.
import chalk from "chalk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Api } from "../../src/api/client.ts";
import { startServer } from "../../src/server/index.ts";
import { isUnread } from "../../src/ui/model/unread.ts";
import { relayTo, startForeignServer } from "../api/foreign-server.ts";
import { pause } from "../wait.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, openFirst, paneText, titleLine } from "./helpers.ts";

// Styles as a terminal gets them (the highlight is in reverse video), whatever runs the
// tests; put back after, for the files that run next in this worker (not isolated).
const level = chalk.level;
beforeAll(() => {
  chalk.level = 1;
});
afterAll(() => {
  chalk.level = level;
});

const each = harnessEachTest();

const words = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(4, "0")}`);

async function sendAll(api: Api, conversationId: string, texts: string[]) {
  for (const message of texts)
    await api.messages.send({ conversation_id: conversationId, message });
}

describe("a message taller than the pane", () => {
  it("is read from its first word to its last, and your own long send shows its end", async () => {
    const harness = await each.start({ columns: 100, rows: 30 });
    const bob = apiFor(harness.server, 1);
    const long = words("w", 800);
    await bob.messages.send({
      conversation_id: (await conversationWith(bob, "alice")).id,
      message: long.join(" "),
    });
    await openFirst(harness, "bob");
    // Opened at its first unread message, above the long one; G goes to the newest.
    await harness.waitFor((s) => /─ new ─/.test(s), "the first unread message");
    await harness.press(KEYS.escape, "G");
    const seen = new Set<string>();
    const note = (s: string) => {
      for (const w of paneText(s).match(/\bw\d{4}\b/g) ?? []) seen.add(w);
    };
    note(await harness.waitFor((s) => s.includes("w0800"), "the end of the long message"));
    // PgUp by a pane, then line by line with k and ↑, until its first word shows.
    await harness.press(KEYS.pageUp);
    note(harness.screen());
    for (let i = 0; i < 200 && !seen.has("w0001"); i++) {
      await harness.press(i % 2 ? "k" : KEYS.up);
      note(harness.screen());
    }
    expect(long.filter((w) => !seen.has(w))).toEqual([]);
    // Still inside it: the message above is only selected by the next ↑ after its top.
    expect(harness.screen()).toMatch(/▌ {2}w0001 /);

    // Your own long send: the view follows it to the bottom, its last line on screen.
    const mine = words("m", 800);
    await harness.press(KEYS.tab);
    await harness.paste(mine.join(" "));
    await harness.press(KEYS.enter);
    const end = await harness.waitFor(
      (s) => s.includes("m0800") && !s.includes("sending…"),
      "the end of your own message",
    );
    expect(titleLine(end)).not.toContain("new ↓");
  }, 60_000);
});

describe("unread", () => {
  it("marks where the unread messages start with a new divider", async () => {
    const harness = await each.start({ columns: 100, rows: 30 });
    const alice = apiFor(harness.server);
    const team = await conversationWith(alice, "team");
    const page = await alice.messages.list({ conversation_id: team.id, limit: 50 });
    const unread = page.data.filter((m) => isUnread(m, team.last_opened_at, "alice")).reverse();
    expect(unread.length).toBe(5);
    await openFirst(harness, "#team");
    const screen = await harness.waitFor((s) => /─ new ─/.test(s), "the new divider");
    const below = screen.split(/─ new ─[^\n]*\n/)[1]!;
    const [sender, text] = [unread[0]!.contact.username, unread[0]!.message.slice(0, 40)];
    expect(below.split("\n")[0]).toMatch(new RegExp(`${sender} · \\d\\d:\\d\\d`));
    expect(below.split("\n").slice(0, 6).join("\n")).toContain(text);
  });

  it("finds where unread starts beyond the first page of history", async () => {
    const harness = await each.start({ columns: 100, rows: 30 });
    const bob = apiFor(harness.server, 1);
    await sendAll(bob, (await conversationWith(bob, "alice")).id, words("unread", 70));
    await openFirst(harness, "bob");
    // bob's first unread message is "Ship it Friday?", 72 messages back.
    const screen = await harness.waitFor((s) => /─ new ─/.test(s), "the new divider");
    const below = paneText(screen).split(/─ new ─[^\n]*\n/)[1]!;
    expect(below.split("\n").slice(0, 3).join("\n")).toContain("Ship it Friday?");
  });

  it("leaves the view where a key took it while the unread start was still being found", async () => {
    // The older page that finds where unread starts is held until keys have moved the view.
    const server = await each.server();
    let release: (() => void) | undefined;
    let landed: Promise<unknown> | undefined;
    const relay = await startForeignServer((req, res) => {
      const older = req.url.startsWith("/v1/messages?") && req.url.includes("starting_after");
      if (older && !release) {
        release = () => {
          landed = relayTo(server.url, req, res);
        };
        return;
      }
      void relayTo(server.url, req, res);
    });
    each.afterTest(() => relay.close());
    const bob = apiFor(server, 1);
    await sendAll(bob, (await conversationWith(bob, "alice")).id, words("unread", 70));
    const harness = await each.start({
      server,
      baseUrl: relay.url,
      timeoutMs: 60_000,
      columns: 100,
      rows: 30,
    });
    await openFirst(harness, "bob");
    await harness.waitFor(() => release !== undefined, "the older page asked for, and held");
    await harness.press(KEYS.escape, "k", "k");
    await harness.waitFor((s) => paneText(s).includes("unread0070"), "the newest messages");
    release!();
    await landed;
    await harness.press();
    // Nothing may move the view now: a moment for a jump that must not come.
    await pause(300);
    const pane = paneText(harness.screen());
    expect(pane).toMatch(/▌ +unread0068/);
    expect(pane).toContain("unread0070");
    // Not at the unread start, 72 messages back, under its divider.
    expect(pane).not.toMatch(/─ new ─/);
  });

  it("u opens the next conversation with unread messages, at its messages", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    await harness.waitFor((s) => /#team +\S+ ●5/.test(s), "#team's unread count");
    // After #team, in the list's order, the next with unread messages.
    await openFirst(harness, "#team");
    await harness.press(KEYS.escape, "u");
    const screen = await harness.waitFor(
      (s) => /Message erin/.test(s) && /─ new ─/.test(s),
      "erin opened, with her unread message marked",
    );
    // The messages pane has the keys: another u goes on.
    expect(screen).toMatch(/↑↓ select/);
    const erin = await conversationWith(alice, "erin");
    expect(erin.last_opened_at).toBeGreaterThan(Date.now() / 1000 - 60);
  });
});

describe("search in the open conversation", () => {
  it("finds a message 300 messages back, shows progress, highlights it, and n/N move", async () => {
    const server = await each.server({ rateLimit: false });
    const bob = apiFor(server, 1);
    const withAlice = (await conversationWith(bob, "alice")).id;
    await sendAll(bob, withAlice, ["the needle alpha, long ago"]);
    await sendAll(bob, withAlice, words("filler", 200));
    await sendAll(bob, withAlice, ["the needle beta, more recent"]);
    await sendAll(bob, withAlice, words("later", 120));
    const harness = await each.start({ server, columns: 100, rows: 30 });
    await openFirst(harness, "bob");
    // 323 unread: the client loads older pages to find where they start, then shows it.
    // (A search begun before then loses its match to that jump: a race in the client.)
    await harness.waitFor((s) => /─ new ─/.test(s), "where the unread messages start");
    await harness.press(KEYS.escape, "/");
    await harness.waitFor((s) => s.includes("search this conversation"), "the search prompt");
    await harness.type("NEEDLE");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => /▌ +the needle beta/.test(s), "the newest match selected");
    expect(harness.written()).toMatch(/\x1b\[7mneedle/);
    // Both are loaded (finding where the unread start went back past them): 1 of 2, the
    // count said to be "so far" if older history is left to load.
    expect(titleLine(harness.screen())).toMatch(/\/NEEDLE · 1 of 2( so far)? · n older/);

    // n: the next older match, 322 messages back, through older pages.
    await harness.press("n");
    await harness.waitFor((s) => /▌ +the needle alpha/.test(s), "the older match", 20_000);
    expect(harness.written()).toMatch(/searching… \d+ messages/);
    await harness.press("n");
    await harness.waitFor((s) => titleLine(s).includes("no older match"), "no older match");
    // N: back to the newer one.
    await harness.press("N");
    await harness.waitFor((s) => /▌ +the needle beta/.test(s), "the newer match again");
    // Esc ends the search; n is "new conversation" again.
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => !titleLine(s).includes("/NEEDLE"), "the search ended");
    await harness.press("n");
    await harness.waitFor(
      (s) => s.includes("new conversation with:"),
      "the new conversation prompt",
    );
  }, 60_000);

  it("says which match of how many: 3 of 3, as n and N go", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    const withCarol = (await conversationWith(alice, "carol")).id;
    await sendAll(alice, withCarol, ["pear one", "an apple", "pear two", "pear three"]);
    await openFirst(harness, "carol");
    await harness.waitFor((s) => s.includes("pear three"), "the newest messages");
    await harness.press(KEYS.escape, "/");
    await harness.type("pear");
    await harness.press(KEYS.enter);
    const title = (s: string) => titleLine(s);
    await harness.waitFor((s) => title(s).includes("/pear · 1 of 3 · n older"), "1 of 3");
    await harness.press("n");
    await harness.waitFor((s) => title(s).includes("/pear · 2 of 3 ·"), "2 of 3");
    await harness.press("n");
    await harness.waitFor((s) => title(s).includes("/pear · 3 of 3 ·"), "3 of 3");
    await harness.press("n");
    await harness.waitFor(
      (s) => title(s).includes("/pear: no older match · 3 of 3"),
      "no older match, still 3 of 3",
    );
    await harness.press("N");
    await harness.waitFor((s) => title(s).includes("/pear · 2 of 3 ·"), "2 of 3 again");
  });

  it("says how far it has searched, and Esc stops it", async () => {
    const real = await startServer({ port: 0, demo: true, demoReplies: false });
    each.afterTest(() => real.close());
    const alice = apiFor(real);
    await sendAll(alice, (await conversationWith(alice, "carol")).id, words("mine", 120));
    // A relay that holds older pages of messages while `holding`.
    let holding = false;
    const held: (() => void)[] = [];
    const relay = await startForeignServer((req, res) => {
      const forward = () => relayTo(real.url, req, res);
      if (holding && req.url.includes("starting_after")) held.push(() => void forward());
      else void forward();
    });
    const harness = await each.start({ server: real, baseUrl: relay.url, timeoutMs: 60_000 });
    await openFirst(harness, "carol");
    await harness.waitFor((s) => s.includes("mine0120"), "the newest messages");
    holding = true;
    await harness.press(KEYS.escape, "/");
    await harness.type("nowhere");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => /searching… \d+ messages · Esc stops/.test(titleLine(s)) && held.length > 0,
      "the search waiting on an older page",
    );
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => titleLine(s).includes("/nowhere: stopped"), "the search stopped");
    const asked = relay.seen.filter((r) => r.url.includes("starting_after")).length;
    for (const release of held.splice(0)) release();
    await pause(500); // requests that must not come
    expect(relay.seen.filter((r) => r.url.includes("starting_after")).length).toBe(asked);
    expect(titleLine(harness.screen())).toContain("stopped");
    await harness.close();
    await relay.close();
  }, 60_000);
});
