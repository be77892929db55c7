// Search in the open conversation and where unread messages start (pure).
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schema.ts";
import type { Item } from "../../src/ui/messageLines.ts";
import { highlight, newerMatch, olderMatch } from "../../src/ui/messageSearch.ts";
import { firstUnreadKey } from "../../src/ui/unread.ts";

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
