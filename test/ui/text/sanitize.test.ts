import { describe, expect, it } from "vitest";
import { sanitize } from "../../../src/ui/text/sanitize.ts";
import { displayWidth } from "../../../src/ui/text/width.ts";
import { random, randomString } from "./random-text.ts";

// Anything that could drive a terminal or reorder text. "\n" is checked separately.
const DANGEROUS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function expectSafe(out: string, keepNewlines = false): void {
  expect(out).not.toMatch(DANGEROUS);
  expect(out.isWellFormed()).toBe(true);
  if (!keepNewlines) expect(out).not.toContain("\n");
}

describe("sanitize", () => {
  const hostile: [string, string, string][] = [
    ["OSC 52 clipboard write", "hi\x1b]52;c;cm0gLXJmIH4=\x07there", "hi␛there"],
    ["clear screen", "\x1b[2Jgone?", "␛gone?"],
    ["window title, ST-terminated", "\x1b]0;pwned\x1b\\after", "␛after"],
    ["8-bit CSI colour", "\x9b31mred", "␛red"],
    ["8-bit OSC", "\x9d0;title\x07x", "␛x"],
    ["8-bit OSC with 8-bit ST", "\x9d8;;http://evil\x9clink", "␛link"],
    ["DCS", "\x1bP1$r0m\x1b\\x", "␛x"],
    ["8-bit DCS", "\x90q#0\x9cx", "␛x"],
    ["APC / PM / SOS", "\x1b_a\x1b\\\x1b^b\x1b\\\x1bXc\x1b\\.", "␛␛␛."],
    ["cursor movement", "\x1b[10;20Hx\x1b[1A", "␛x␛"],
    ["short escapes", "\x1b7\x1b(B\x1bc\x1b#8", "␛␛␛␛"],
    ["lone ESC at the end", "bye\x1b", "bye␛"],
    ["lone ESC before a control", "\x1b\x07", "␛␇"],
    ["BEL", "ding\x07", "ding␇"],
    ["backspace overwrite", "paid\b\b\b\bfree", "paid␈␈␈␈free"],
    ["carriage-return overwrite", "rm -rf /\rls -l", "rm -rf /␍ls -l"],
    ["NUL and DEL", "a\x00b\x7fc", "a␀b␡c"],
    ["C1 NEL / mojibake", "it\u00e2\x80\x99s", "itâ��s"],
    ["RLO filename spoof", "invoice\u202Etxt.exe", "invoice�txt.exe"],
    ["bidi isolates and marks", "\u2066a\u2069\u200eb\u200f\u061c", "�a��b��"],
    ["lone surrogates", "x\ud83dy\udc4dz", "x�y�z"],
    ["unterminated OSC keeps its text", "\x1b]0;no end", "␛]0;no end"],
    ["OSC aborted by another ESC", "\x1b]0;t\x1b[31mred", "␛]0;t␛red"],
    ["CSI with a stray control inside", "\x1b[31\x07m", "␛[31␇m"],
  ];

  for (const [name, input, expected] of hostile) {
    it(`neutralises ${name}`, () => {
      const out = sanitize(input);
      expect(out).toBe(expected);
      expectSafe(out);
    });
  }

  it("keeps newlines only when asked, and turns CRLF and U+2028/9 into one newline", () => {
    expect(sanitize("a\nb")).toBe("a␊b");
    expect(sanitize("a\nb", { keepNewlines: true })).toBe("a\nb");
    expect(sanitize("a\r\nb\u2028c\u2029d", { keepNewlines: true })).toBe("a\nb\nc\nd");
    expect(sanitize("a\r\nb")).toBe("a␊b");
    // A lone CR is an overwrite trick even in multi-line text.
    expect(sanitize("a\rb", { keepNewlines: true })).toBe("a␍b");
  });

  it("turns tabs into spaces", () => {
    expect(sanitize("a\tb")).toBe("a    b");
    expect(sanitize("a\tb", { tabWidth: 2 })).toBe("a  b");
  });

  it("strips instead of showing placeholders when asked", () => {
    expect(sanitize("\x1b[31mred\x1b[0m \x07\u202Ex\x9b", { strip: true })).toBe("red x");
  });

  it("leaves ordinary text alone, emoji, CJK, ZWJ and combining marks included", () => {
    for (const s of [
      "hello",
      "你好 世界",
      "👍🏽 👨‍👩‍👧 🇺🇸 e\u0301",
      "naïve café",
      "\u00a0nbsp",
      "",
    ]) {
      expect(sanitize(s)).toBe(s);
    }
  });

  it("uses printable one-column placeholders", () => {
    for (const mark of ["␛", "␀", "␇", "␍", "␊", "␡", "�"]) expect(displayWidth(mark)).toBe(1);
    expect(displayWidth(sanitize("\x1b]52;c;AAAA\x07"))).toBe(1);
  });

  it("is idempotent, never throws and never lets a control through (random hostile input)", () => {
    const next = random(1);
    const alphabet = [
      "a",
      " ",
      "\n",
      "\r",
      "\t",
      "\x1b",
      "[",
      "]",
      "P",
      "\\",
      "0",
      ";",
      "m",
      "\x07",
      "\x9b",
      "\x9c",
      "\x9d",
      "\x90",
      "\x85",
      "\x7f",
      "\x00",
      "\u202e",
      "\u2066",
      "\ud83d",
      "\udc4d",
      "👍🏽",
      "你",
      "e\u0301",
    ];
    for (let n = 0; n < 3000; n++) {
      const input = randomString(next, alphabet, 40);
      for (const options of [undefined, { keepNewlines: true }, { strip: true }]) {
        const once = sanitize(input, options);
        expectSafe(once, options?.keepNewlines);
        expect(sanitize(once, options)).toBe(once);
      }
    }
  });

  it("copes with non-strings at runtime", () => {
    expect(sanitize(undefined as unknown as string)).toBe("");
    expect(sanitize(42 as unknown as string)).toBe("42");
  });

  it("stays linear on pathological input", () => {
    // 500,000 characters: a quadratic scan would take hours here, and the test's timeout
    // ends it; a linear one takes milliseconds. (How fast it is belongs in the bench.)
    const evil = "\x1b]".repeat(100_000) + "\x9d".repeat(100_000) + "\x1b[".repeat(100_000);
    expectSafe(sanitize(evil));
  });
});
