// Search in the open conversation and where unread messages start (pure).
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schema.ts";
import { type Item, type Line, layoutItem } from "../../src/ui/messages/message-lines.ts";
import {
  highlight,
  matchCountText,
  matchPosition,
  newerMatch,
  olderMatch,
} from "../../src/ui/messages/search.ts";
import { firstUnreadKey } from "../../src/ui/messages/use-pane-jumps.ts";

const item = (id: string, text: string, from = "bob", at = 100): Item => ({
  kind: "message",
  key: id,
  message: { id, message: text, created_at: at, contact: { username: from } } as Message,
});

describe("search in a conversation", () => {
  const items = [
    item("a", "Needle one"),
    item("b", "hay"),
    item("c", "a needle"),
    item("d", "hay"),
  ];

  it("finds the newest match older than a point, and the next newer one", () => {
    expect(olderMatch(items, "needle", items.length)).toBe(2);
    expect(olderMatch(items, "NEEDLE", 2)).toBe(0);
    expect(olderMatch(items, "needle", 0)).toBe(-1);
    expect(newerMatch(items, "needle", 0)).toBe(2);
    expect(newerMatch(items, "needle", 2)).toBe(-1);
    expect(olderMatch(items, "", items.length)).toBe(-1);
  });

  it("counts a match's place among the matches from the newest, and all of them", () => {
    expect(matchPosition(items, "needle", 2)).toEqual({ position: 1, total: 2 });
    expect(matchPosition(items, "needle", 0)).toEqual({ position: 2, total: 2 });
    expect(matchPosition(items, "hay", 1)).toEqual({ position: 2, total: 2 });
    expect(matchPosition(items, "nothing", 0)).toEqual({ position: 0, total: 0 });
    expect(matchCountText(items, "needle", "a", false)).toBe(" · 2 of 2");
    // History left to load: only what is loaded is counted, and it says so.
    expect(matchCountText(items, "needle", "c", true)).toBe(" · 1 of 2 so far");
    expect(matchCountText(items, "needle", "gone", false)).toBe("");
  });

  it("marks every occurrence in reverse, keeping the rest of the segment", () => {
    const [line] = highlight([[{ text: "  ab AB ab", tone: "plain" }]], "ab");
    expect(line).toEqual([
      { text: "  ", tone: "plain" },
      { text: "ab", tone: "plain", inverse: true },
      { text: " ", tone: "plain" },
      { text: "AB", tone: "plain", inverse: true },
      { text: " ", tone: "plain" },
      { text: "ab", tone: "plain", inverse: true },
    ]);
  });
});

describe("the match marked in a message's lines", () => {
  const marked = (lines: Line[]) =>
    lines.map((line) =>
      line
        .filter((s) => s.inverse)
        .map((s) => s.text)
        .join(""),
    );

  it("marks a match the wrap cut at a space, without the next line's indent", () => {
    const lines: Line[] = [
      [{ text: "  " }, { text: "ship it on" }],
      [{ text: "  " }, { text: "Friday please" }],
    ];
    expect(marked(highlight(lines, "on friday"))).toEqual(["on", "Friday"]);
  });

  it("marks a word cut at the edge, and a match across a link's segments", () => {
    const cut: Line[] = [[{ text: "  abcdef" }], [{ text: "  ghij" }]];
    expect(marked(highlight(cut, "efgh"))).toEqual(["ef", "gh"]);
    const link: Line[] = [
      [{ text: "  see " }, { text: "example.com", link: { url: "https://example.com", id: "l" } }],
    ];
    const [line] = highlight(link, "see ex");
    expect(line!.filter((s) => s.inverse).map((s) => s.text)).toEqual(["see ", "ex"]);
    // The link's piece keeps its link.
    expect(line!.find((s) => s.text === "ex")?.link?.url).toBe("https://example.com");
  });

  it("marks a match that wraps in a real layout", () => {
    const text = "the quick brown fox jumps over the lazy dog";
    const message = item("m", text);
    if (message.kind === "message") {
      Object.assign(message.message, { attachments: [], reactions: [] });
    }
    const lines = layoutItem(message, undefined, { width: 14, me: "alice", now: 100 });
    const shown = marked(highlight(lines, "fox jumps over")).join("|");
    expect(shown.replace(/\|/g, " ").replace(/\s+/g, " ").trim()).toBe("fox jumps over");
  });
});

describe("unread", () => {
  it("starts at the first message from someone else after the last opening", () => {
    const items = [
      item("a", "old", "bob", 10),
      item("b", "mine", "alice", 30),
      item("c", "new", "bob", 40),
    ];
    expect(firstUnreadKey(items, 20, "alice")).toBe("c");
    expect(firstUnreadKey(items, 40, "alice")).toBeUndefined();
    expect(firstUnreadKey(items, null, "alice")).toBe("a");
  });
});
