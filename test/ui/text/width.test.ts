import { afterEach, describe, expect, it } from "vitest";
import { setWidthMode } from "../../../src/ui/ink/string-width.ts";
import { screenText } from "../../../src/ui/text/sanitize.ts";
import {
  displayWidth,
  drawnUnits,
  padEnd,
  terminalForm,
  truncate,
} from "../../../src/ui/text/width.ts";
import { graphemesOf, random, randomString } from "./random-text.ts";

describe("displayWidth", () => {
  it("measures by grapheme and East Asian width", () => {
    expect(displayWidth("hello")).toBe(5);
    expect(displayWidth("你好")).toBe(4);
    expect(displayWidth("👍🏽")).toBe(2);
    // Drawn as its parts where the terminal does not cluster (the default).
    expect(displayWidth("👨‍👩‍👧")).toBe(6);
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
    // By part where the terminal does not cluster: it draws 👨👩👧.
    expect(truncate("👨‍👩‍👧👨‍👩‍👧", 3)).toBe("👨‍…");
    expect(truncate("👨‍👩‍👧👨‍👩‍👧", 7)).toBe("👨‍👩‍👧…");
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
  it.each([
    ["ab", 4, "ab  "],
    ["你", 4, "你  "],
    ["👍🏽", 3, "👍🏽 "],
    ["abcdef", 3, "abcdef"],
  ] as const)("pads %j to %i columns by display width, never cutting", (text, width, padded) => {
    expect(padEnd(text, width)).toBe(padded);
  });
});

describe("terminalForm", () => {
  it("drops the code points terminals disagree about, so measured width is drawn width", () => {
    expect(terminalForm("ok 👍🏽")).toBe("ok 👍");
    expect(terminalForm("❤️")).toBe("❤");
    expect(displayWidth("👍🏽")).toBe(2);
    expect(displayWidth("❤️")).toBe(1);
    expect(displayWidth("a👨‍👩‍👧b")).toBe(8);
    expect(screenText("\x1b[31m👍🏽")).toBe("␛👍");
  });

  it("draws emoji ZWJ sequences as their parts, and a lone regional indicator as its letter", () => {
    expect(terminalForm("a👨‍👩‍👧b")).toBe("a👨👩👧b");
    expect(terminalForm("🧑🏽‍💻")).toBe("🧑💻");
    expect(terminalForm("🏳️‍🌈")).toBe("🏳🌈");
    expect(displayWidth("🏳️‍🌈")).toBe(3);
    // A joiner between letters (Indic, Arabic shaping) is no emoji's: kept.
    expect(terminalForm("\u0915\u094D\u200D\u0937")).toBe("\u0915\u094D\u200D\u0937");
    // One that ends a grapheme goes: tmux draws a non-ASCII character after it in its cell.
    expect(terminalForm("a\u200D\u2026")).toBe("a\u2026");
    expect(terminalForm("a\u200D\u200Da\u200D")).toBe("aa");
    expect(displayWidth("a\u200D\u2026")).toBe(2);
    expect(terminalForm("🇫🇷 🇫")).toBe("🇫🇷 F");
    expect(terminalForm("🇫🇷🇩")).toBe("🇫🇷D");
    expect(displayWidth("🇫🇷🇩")).toBe(3);
    expect([...drawnUnits("a👨‍👩‍👧")].map((u) => u.segment)).toEqual(["a", "👨‍", "👩‍", "👧"]);
  });
});

describe("a terminal that clusters graphemes (mode 2027)", () => {
  afterEach(() => setWidthMode("code-points"));

  it("is drawn every sequence as it is, measured as one grapheme", () => {
    setWidthMode("clusters");
    expect(terminalForm("a👨‍👩‍👧b 👍🏽 ❤️")).toBe("a👨‍👩‍👧b 👍🏽 ❤️");
    expect(displayWidth("👨‍👩‍👧")).toBe(2);
    expect(displayWidth("👍🏽")).toBe(2);
    expect(displayWidth("❤️")).toBe(2);
    expect(truncate("👨‍👩‍👧👨‍👩‍👧", 3)).toBe("👨‍👩‍👧…");
    expect([...drawnUnits("a👨‍👩‍👧")].map((u) => u.segment)).toEqual(["a", "👨‍👩‍👧"]);
    // Half a flag is still drawn as its letter.
    expect(terminalForm("🇫")).toBe("F");
  });
});
