import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/server/demo/random.ts";
import {
  clockTime,
  dayLabel,
  displayWidth,
  formatBytes,
  padEnd,
  relativeTime,
  sanitize,
  screenText,
  terminalForm,
  truncate,
  wrap,
  wrapRanges,
} from "../../src/ui/text.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const graphemesOf = (s: string) => Array.from(segmenter.segment(s), (x) => x.segment);

const random = seededRandom;

function randomString(next: () => number, alphabet: readonly string[], maxParts: number): string {
  let s = "";
  const parts = Math.floor(next() * maxParts);
  for (let i = 0; i < parts; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}

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
    const evil = "\x1b]".repeat(100_000) + "\x9d".repeat(100_000) + "\x1b[".repeat(100_000);
    const started = performance.now();
    const out = sanitize(evil);
    expect(performance.now() - started).toBeLessThan(1000);
    expectSafe(out);
  });
});

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
    expect(wrap("👨‍👩‍👧👨‍👩‍👧", 3)).toEqual(["👨‍👩‍👧", "👨‍👩‍👧"]);
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
    const alphabet = [
      "a",
      "b",
      "word",
      "x".repeat(13),
      " ",
      "  ",
      "\n",
      "你",
      "好",
      "👍🏽",
      "👨‍👩‍👧",
      "🇺🇸",
      "e\u0301",
      "😀",
      "ñ",
    ];
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

const at = (...parts: [number, number, number, number?, number?]) => {
  const [y, m, d, h = 12, min = 0] = parts;
  return new Date(y, m - 1, d, h, min).getTime() / 1000;
};

describe("relativeTime", () => {
  const now = at(2026, 11, 20, 15, 30);
  it("is compact", () => {
    expect(relativeTime(now, now)).toBe("now");
    expect(relativeTime(now - 59, now)).toBe("now");
    expect(relativeTime(now + 300, now)).toBe("now");
    expect(relativeTime(now - 120, now)).toBe("2m");
    expect(relativeTime(now - 5 * 3600, now)).toBe("5h");
    expect(relativeTime(now - 3 * 86400, now)).toBe("3d");
    expect(relativeTime(now - 6 * 86400, now)).toBe("6d");
  });
  it("falls back to a short date, with the year only when it differs", () => {
    expect(relativeTime(at(2026, 11, 3), now)).toBe("Nov 3");
    expect(relativeTime(at(2025, 11, 3), now)).toBe("Nov 3 2025");
  });
  it("gives an empty label for nonsense", () => {
    expect(relativeTime(Number.NaN, now)).toBe("");
  });
});

describe("clockTime and dayLabel", () => {
  it("shows a local 24-hour time", () => {
    expect(clockTime(at(2026, 11, 3, 10, 2))).toBe("10:02");
    expect(clockTime(at(2026, 11, 3, 9, 5))).toBe("09:05");
    expect(clockTime(at(2026, 11, 3, 23, 59))).toBe("23:59");
  });

  it("labels days by the local calendar", () => {
    const now = at(2026, 11, 20, 0, 30); // a Friday, just after midnight
    expect(dayLabel(at(2026, 11, 20, 0, 10), now)).toBe("Today");
    expect(dayLabel(at(2026, 11, 19, 23, 50), now)).toBe("Yesterday");
    expect(dayLabel(at(2026, 11, 17, 8), now)).toBe("Tuesday");
    expect(dayLabel(at(2026, 11, 14, 8), now)).toBe("Saturday");
    expect(dayLabel(at(2026, 11, 13, 8), now)).toBe("Fri 13 Nov 2026");
    expect(dayLabel(at(2025, 11, 3, 8), now)).toBe("Mon 3 Nov 2025");
  });
});

describe("formatBytes", () => {
  it("is short and human", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1.0 KB");
    expect(formatBytes(1229)).toBe("1.2 KB");
    expect(formatBytes(15 * 1024)).toBe("15 KB");
    expect(formatBytes(3.4 * 1024 * 1024)).toBe("3.4 MB");
    expect(formatBytes(1024 * 1024 - 1)).toBe("1.0 MB");
    expect(formatBytes(2.5 * 1024 ** 3)).toBe("2.5 GB");
  });
  it("does not make up sizes for nonsense", () => {
    expect(formatBytes(-1)).toBe("0 B");
    expect(formatBytes(Number.NaN)).toBe("0 B");
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
