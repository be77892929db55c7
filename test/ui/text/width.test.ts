import { describe, expect, it } from "vitest";
import { screenText } from "../../../src/ui/text/sanitize.ts";
import { displayWidth, padEnd, terminalForm, truncate } from "../../../src/ui/text/width.ts";
import { graphemesOf, random, randomString } from "./random-text.ts";

describe("displayWidth", () => {
  it("measures by grapheme and East Asian width", () => {
    expect(displayWidth("hello")).toBe(5);
    expect(displayWidth("你好")).toBe(4);
    expect(displayWidth("👍🏽")).toBe(2);
    expect(displayWidth("👨‍👩‍👧")).toBe(2);
    expect(displayWidth("🇺🇸")).toBe(2);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("")).toBe(0);
  });
});

describe("truncate", () => {
  it("cuts by display width and grapheme with an ellipsis", () => {
    expect(truncate("hello world", 20)).toBe("hello world");
    expect(truncate("hello world", 11)).toBe("hello world");
    expect(truncate("hello world", 8)).toBe("hello w…");
    expect(truncate("你好世界", 5)).toBe("你好…");
    expect(truncate("你好世界", 4)).toBe("你…");
    expect(truncate("👍🏽👍🏽👍🏽", 4)).toBe("👍🏽…");
    expect(truncate("👨‍👩‍👧👨‍👩‍👧", 3)).toBe("👨‍👩‍👧…");
    expect(truncate("e\u0301e\u0301e\u0301", 2)).toBe("e\u0301…");
  });

  it("handles tiny widths and custom ellipses", () => {
    expect(truncate("abc", 0)).toBe("");
    expect(truncate("abc", -3)).toBe("");
    expect(truncate("abcdef", 1)).toBe("…");
    expect(truncate("abcdef", 5, "...")).toBe("ab...");
    expect(truncate("abcdef", 2, "...")).toBe("..");
    expect(truncate("abcdef", 3, "")).toBe("abc");
  });

  it("never exceeds the width and returns a whole-grapheme prefix (random)", () => {
    const next = random(3);
    const alphabet = ["a", " ", "你", "👍🏽", "👨‍👩‍👧", "🇺🇸", "e\u0301"];
    for (let n = 0; n < 1000; n++) {
      const text = randomString(next, alphabet, 20);
      const width = Math.floor(next() * 12);
      const out = truncate(text, width);
      expect(displayWidth(out)).toBeLessThanOrEqual(width);
      const body = out.endsWith("…") && out !== text ? out.slice(0, -1) : out;
      expect(text.startsWith(body)).toBe(true);
      expect(graphemesOf(text).slice(0, graphemesOf(body).length).join("")).toBe(body);
    }
  });
});

describe("padEnd", () => {
  it("pads by display width and never cuts", () => {
    expect(padEnd("ab", 4)).toBe("ab  ");
    expect(padEnd("你", 4)).toBe("你  ");
    expect(padEnd("👍🏽", 3)).toBe("👍🏽 ");
    expect(padEnd("abcdef", 3)).toBe("abcdef");
  });
});

describe("terminalForm", () => {
  it("drops the code points terminals disagree about, so measured width is drawn width", () => {
    expect(terminalForm("ok 👍🏽")).toBe("ok 👍");
    expect(terminalForm("❤️")).toBe("❤");
    expect(displayWidth("👍🏽")).toBe(2);
    expect(displayWidth("❤️")).toBe(1);
    expect(displayWidth("a👨‍👩‍👧b")).toBe(4);
    expect(screenText("\x1b[31m👍🏽")).toBe("␛👍");
  });
});
