import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../src/ui/text/width.ts";
import { wrap, wrapRanges } from "../../../src/ui/text/wrap.ts";
import { graphemesOf, random, randomString } from "./random-text.ts";

describe("wrap", () => {
  it("breaks at spaces and drops the spaces at a break", () => {
    expect(wrap("hello world", 5)).toEqual(["hello", "world"]);
    expect(wrap("hello world", 11)).toEqual(["hello world"]);
    expect(wrap("aa bbbbbbb   c", 10)).toEqual(["aa bbbbbbb", "c"]);
    expect(wrap("one two three four", 9)).toEqual(["one two", "three", "four"]);
  });

  it("keeps a paragraph's indentation and respects newlines", () => {
    expect(wrap("  indented", 20)).toEqual(["  indented"]);
    expect(wrap("a\n\nb", 5)).toEqual(["a", "", "b"]);
    expect(wrap("a\n", 5)).toEqual(["a", ""]);
    expect(wrap("", 5)).toEqual([""]);
  });

  it("hard-breaks words longer than the width", () => {
    expect(wrap("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(wrap("go https://example.com/x", 8)).toEqual(["go", "https://", "example.", "com/x"]);
  });

  it("handles CJK: width 2, breakable between characters, never over the width", () => {
    expect(wrap("你好世界", 4)).toEqual(["你好", "世界"]);
    expect(wrap("你好世界", 5)).toEqual(["你好", "世界"]);
    expect(wrap("ab你好", 3)).toEqual(["ab", "你", "好"]);
    expect(wrap("hi 你好世界", 6)).toEqual(["hi 你", "好世界"]);
  });

  it("never splits emoji sequences, flags or combining marks", () => {
    expect(wrap("👍🏽👍🏽👍🏽", 4)).toEqual(["👍🏽👍🏽", "👍🏽"]);
    // Where the terminal does not cluster (the default) a ZWJ sequence is drawn as its parts.
    expect(wrap("👨‍👩‍👧👨‍👩‍👧", 6)).toEqual(["👨‍👩‍👧", "👨‍👩‍👧"]);
    expect(wrap("🇺🇸🇫🇷🇯🇵", 5)).toEqual(["🇺🇸🇫🇷", "🇯🇵"]);
    expect(wrap("e\u0301e\u0301e\u0301", 2)).toEqual(["e\u0301e\u0301", "e\u0301"]);
  });

  it("shows a character wider than the whole width as an ellipsis", () => {
    expect(wrap("a你b", 1)).toEqual(["a", "…", "b"]);
  });

  it("treats widths below 1 as 1", () => {
    expect(wrap("ab", 0)).toEqual(["a", "b"]);
    expect(wrap("ab", Number.NaN)).toEqual(["a", "b"]);
  });

  it("never exceeds the width and keeps every grapheme whole and in order (random)", () => {
    const next = random(7);
    const words = ["a", "b", "word", "x".repeat(13), " ", "  ", "\n"];
    const graphemes = ["你", "好", "👍🏽", "👨‍👩‍👧", "🇺🇸", "e\u0301", "😀", "ñ"];
    const alphabet = [...words, ...graphemes];
    for (let n = 0; n < 2000; n++) {
      const text = randomString(next, alphabet, 30);
      const width = 1 + Math.floor(next() * 14);
      const lines = wrap(text, width);
      expect(lines.length).toBeGreaterThanOrEqual(text.split("\n").length);
      for (const line of lines) {
        expect(line).not.toContain("\n");
        expect(displayWidth(line)).toBeLessThanOrEqual(width);
      }
      if (width >= 2) {
        const kept = lines.flatMap((line) => graphemesOf(line)).filter((g) => g !== " ");
        const original = graphemesOf(text).filter((g) => g !== " " && g !== "\n");
        expect(kept).toEqual(original);
      }
    }
  });
});

describe("wrapRanges", () => {
  it("covers the text losslessly, spaces included", () => {
    const text = "hello world\nfoo";
    const rows = wrapRanges(text, 5);
    expect(rows.map((r) => text.slice(r.start, r.end))).toEqual(["hello", " ", "world", "foo"]);
    expect(rows.map((r) => r.hard)).toEqual([false, false, true, true]);
    expect(rows.map((r) => r.width)).toEqual([5, 1, 5, 3]);
  });
});
