import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyMatch } from "../../src/ui/text/fuzzy.ts";

describe("fuzzyMatch", () => {
  it("finds the query's characters in order, ignoring case and spaces in the query", () => {
    expect(fuzzyMatch("tm", "#team")).toMatchObject({ tier: 3 });
    expect(fuzzyMatch("TM", "#Team")).toMatchObject({ tier: 3 });
    expect(fuzzyMatch("h ir", "#hiring")).toMatchObject({ tier: 0 });
    expect(fuzzyMatch("mt", "#team")).toBeNull();
    expect(fuzzyMatch("teams", "#team")).toBeNull();
  });

  it("ranks a prefix (a leading # aside), then a word start, then inside a word, then spread", () => {
    expect(fuzzyMatch("te", "#team")?.tier).toBe(0);
    expect(fuzzyMatch("#te", "#team")?.tier).toBe(0);
    expect(fuzzyMatch("2024", "#archive-2024")?.tier).toBe(1);
    expect(fuzzyMatch("eam", "#team")?.tier).toBe(2);
    expect(fuzzyMatch("ace", "#archive-2024")?.tier).toBe(3);
  });

  it("takes the tightest spread of the characters", () => {
    expect(fuzzyMatch("ab", "a-x-ab")).toMatchObject({ tier: 1, at: 4, span: 2 });
    expect(fuzzyMatch("ac", "a-b-c abc")).toMatchObject({ tier: 3, span: 3 });
  });

  it("matches everything with an empty query", () => {
    expect(fuzzyMatch("", "bob")).toMatchObject({ tier: 0 });
  });

  it("handles characters beyond the BMP as one each", () => {
    expect(fuzzyMatch("🚀l", "🚀 launch")?.tier).toBe(3);
    expect(fuzzyMatch("l", "🚀 launch")?.tier).toBe(0);
  });
});

describe("fuzzyFilter", () => {
  const names = ["#random", "#team", "#oncall", "tamara", "#design", "#archive-team"];

  it("keeps the matches, best first, equals in the order given", () => {
    // Spread out: the tighter first (t-a-m before t-e-a-m), then the order given.
    expect(fuzzyFilter(names, "tm", (n) => n)).toEqual(["tamara", "#team", "#archive-team"]);
    expect(fuzzyFilter(names, "team", (n) => n)).toEqual(["#team", "#archive-team"]);
    // All inside a word but the first: the earlier the match, the better.
    expect(fuzzyFilter(names, "a", (n) => n)).toEqual([
      "#archive-team",
      "tamara",
      "#random",
      "#team",
      "#oncall",
    ]);
  });
});
