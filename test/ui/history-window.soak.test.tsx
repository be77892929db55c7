// A long history keeps only a window of pages (src/ui/queries/history.ts): read back to its
// first message and forward again, every message still shows, in order; G and a send go
// to the newest at once; search walks newer pages too. Against the embedded server. Long
// reads (hundreds of keys each): a soak, `npm run test:soak`.
import { describe, expect, it } from "vitest";
import type { Api } from "../../src/api/client.ts";
import {
  HISTORY_PAGES_KEPT,
  type MessagePages,
  reachesNewest,
} from "../../src/ui/queries/cache.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { shouldKeepQuery } from "../../src/ui/queries/restore.ts";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, openFirst, paneText, titleLine } from "./helpers.ts";

const each = harnessEachTest();

/** More than the window holds: HISTORY_PAGES_KEPT pages of 50, and two more. */
const COUNT = (HISTORY_PAGES_KEPT + 2) * 50;
const token = (n: number) => `h${String(n).padStart(4, "0")}`;

/** The message tokens in the pane, top to bottom. */
const tokens = (s: string) =>
  (paneText(s).match(/\bh\d{4}\b/g) ?? []).map((t) => Number(t.slice(1)));
/** The token of the selected message (the marker's row). */
const selectedToken = (s: string) => /▌ +(h\d{4})\b/.exec(s)?.[1];

async function seed(api: Api, conversationId: string, texts: (n: number) => string) {
  for (let n = 1; n <= COUNT; n++) {
    await api.messages.send({ conversation_id: conversationId, message: texts(n) });
  }
}

async function start(texts: (n: number) => string = token) {
  const server = await each.server({ rateLimit: false });
  const alice = apiFor(server);
  const withBob = (await conversationWith(alice, "bob")).id;
  await seed(alice, withBob, texts);
  const harness = await each.start({ server, columns: 100, rows: 30 });
  await openFirst(harness, "bob");
  await harness.waitFor((s) => s.includes(token(COUNT)), "the newest message");
  await harness.press(KEYS.escape); // to the messages pane
  return { h: harness, conversationId: withBob };
}

const pagesKept = (h: Harness, conversationId: string) =>
  h.queryClient.getQueryData<MessagePages>(keys.messages.list(conversationId))?.pages.length ?? 0;

/** Whether the oldest page of all is loaded. */
const oldestLoaded = (h: Harness, conversationId: string) =>
  h.queryClient.getQueryData<MessagePages>(keys.messages.list(conversationId))?.pages.at(-1)
    ?.has_more === false;

/**
 * g (the oldest loaded) until the first message of all is selected, each older page waited
 * for. The demo's own messages with bob come before the test's.
 */
async function toFirst(h: Harness, conversationId: string, seen: Set<number>) {
  for (let i = 0; i < COUNT / 10 && !oldestLoaded(h, conversationId); i++) {
    await h.press("g");
    const s = await h.waitFor((s) => !titleLine(s).includes("loading older…"), "an older page");
    for (const n of tokens(s)) seen.add(n);
  }
  await h.press("g");
  expect(oldestLoaded(h, conversationId)).toBe(true);
}

describe("a history longer than the kept window", () => {
  it("is read back to its first message and forward again, every message in order", async () => {
    const { h, conversationId } = await start();
    const back = new Set<number>();
    await toFirst(h, conversationId, back);
    expect(pagesKept(h, conversationId)).toBeLessThanOrEqual(HISTORY_PAGES_KEPT);
    // The newest pages were dropped on the way: the title says newer ones are below (once
    // the frame after the last page's answer is drawn: the cache has it before the screen).
    await h.waitFor((s) => titleLine(s).includes("newer ↓"), "the title's newer ↓");

    // PgDn to the newest: each screen in order, and together every message.
    const forward = new Set<number>();
    let previousTop = 0;
    for (let i = 0; i < COUNT && selectedToken(h.screen()) !== token(COUNT); i++) {
      const pane = paneText(h.screen());
      const shown = tokens(h.screen());
      expect(shown).toEqual([...shown].sort((a, b) => a - b));
      expect(shown[0] ?? previousTop).toBeGreaterThanOrEqual(previousTop);
      previousTop = shown[0] ?? previousTop;
      for (const n of shown) forward.add(n);
      await h.press(KEYS.pageDown);
      const s = await h.waitFor(
        (s) => paneText(s) !== pane || titleLine(s).includes("loading newer…"),
        "the next screenful, or the newer page on its way",
      );
      if (titleLine(s).includes("loading newer…")) {
        await h.waitFor((s) => !titleLine(s).includes("loading newer…"), "the newer page");
      }
      expect(pagesKept(h, conversationId)).toBeLessThanOrEqual(HISTORY_PAGES_KEPT);
    }
    for (const n of tokens(h.screen())) forward.add(n);
    const all = Array.from({ length: COUNT }, (_, i) => i + 1);
    expect(all.filter((n) => !forward.has(n))).toEqual([]);
    await h.waitFor((s) => !titleLine(s).includes("newer ↓"), "the newest loaded again");
  }, 120_000);

  it("goes to the newest at once with G, and with a send, from far back", async () => {
    const { h, conversationId } = await start();
    await toFirst(h, conversationId, new Set());
    await h.press("G");
    await h.waitFor(
      (s) => selectedToken(s) === token(COUNT) && !titleLine(s).includes("newer ↓"),
      "the newest message selected",
    );
    expect(pagesKept(h, conversationId)).toBeLessThanOrEqual(2);

    await toFirst(h, conversationId, new Set());
    await h.press(KEYS.tab);
    await h.type("sent from far back");
    await h.press(KEYS.enter);
    const s = await h.waitFor(
      (s) => paneText(s).includes("sent from far back") && paneText(s).includes(token(COUNT)),
      "the send below the newest message",
    );
    const pane = paneText(s);
    expect(pane.indexOf("sent from far back")).toBeGreaterThan(pane.indexOf(token(COUNT)));
  }, 120_000);

  it("opens at the newest again after another conversation, and is not kept far back", async () => {
    const { h, conversationId } = await start();
    await toFirst(h, conversationId, new Set());
    const query = h.queryClient
      .getQueryCache()
      .find({ queryKey: keys.messages.list(conversationId) });
    // Read far back, the history is left out of the cache kept for the next start.
    expect(shouldKeepQuery(query!)).toBe(false);
    await h.press(KEYS.escape);
    await openFirst(h, "#team");
    await h.press(KEYS.escape, KEYS.escape); // the composer, the messages, the list
    await openFirst(h, "bob");
    await h.waitFor(
      (s) => paneText(s).includes(token(COUNT)) && !titleLine(s).includes("newer ↓"),
      "bob's newest messages",
    );
    expect(shouldKeepQuery(query!)).toBe(true);
  }, 120_000);

  it("searches older pages and back through newer ones (n, then N)", async () => {
    const needle = (n: number) =>
      n === 5 || n === COUNT - 5 ? `${token(n)} the needle` : token(n);
    const { h, conversationId } = await start(needle);
    await h.press("/");
    await h.waitFor((s) => s.includes("search this conversation"), "the search prompt");
    await h.type("needle");
    await h.press(KEYS.enter);
    await h.waitFor((s) => selectedToken(s) === token(COUNT - 5), "the newest match");
    await h.press("n");
    await h.waitFor((s) => selectedToken(s) === token(5), "the oldest match", 60_000);
    // The newest pages were dropped on the way back: N walks through them again.
    const data = h.queryClient.getQueryData<MessagePages>(keys.messages.list(conversationId));
    expect(reachesNewest(data)).toBe(false);
    await h.press("N");
    await h.waitFor((s) => selectedToken(s) === token(COUNT - 5), "the newer match again", 60_000);
    await h.press("N");
    await h.waitFor((s) => titleLine(s).includes("no newer match"), "no newer match");
  }, 120_000);
});
