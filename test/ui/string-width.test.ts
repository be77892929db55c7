// src/ui/ink/string-width.ts stands in for string-width everywhere in the bundle: it must
// give string-width's answer for every input, or Ink and parley would cut lines that fit.
import { search } from "node-emoji";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// By path: the bare name resolves to parley's copy here too (scripts/ink-plugin.ts).
import original from "../../node_modules/string-width/index.js";
import stringWidth, {
  graphemeWidth,
  setWidthMode,
  widthMode,
  withoutEmojiJoiners,
} from "../../src/ui/ink/string-width.ts";

function differences(inputs: Iterable<string>): string[] {
  const wrong: string[] = [];
  for (const input of inputs) {
    if (stringWidth(input) !== original(input)) {
      wrong.push(`${JSON.stringify(input)}: ${stringWidth(input)}, not ${original(input)}`);
    }
    if (wrong.length >= 10) break;
  }
  return wrong;
}

/** Planes 0 to 3 (all that Unicode assigns but tags and private use), then plane 14's tags and selectors, and samples of the private-use planes. */
function* everyCodePoint(): Generator<string> {
  const ranges: [number, number, number][] = [
    [0, 0x3ffff, 1],
    [0xe0000, 0xe01ff, 1],
    [0xf0000, 0x10ffff, 97],
  ];
  for (const [from, to, step] of ranges) {
    for (let cp = from; cp <= to; cp += step) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      yield String.fromCodePoint(cp);
    }
  }
}

/** Every emoji node-emoji names (emojilib's), and a skin tone on each. */
const EMOJI = search("").flatMap(({ emoji }) => [emoji, `${emoji}\u{1F3FD}`]);

describe("parley's string-width, for a terminal that clusters graphemes", () => {
  beforeAll(() => setWidthMode("clusters"));
  afterAll(() => setWidthMode("code-points"));

  it("measures every assigned code point as string-width does", () => {
    expect(differences(everyCodePoint())).toEqual([]);
  });

  it("measures every emoji, sequences too, alone, in text and in either presentation", () => {
    function* inputs(): Generator<string> {
      for (const emoji of EMOJI) {
        yield emoji;
        yield `a${emoji}b`;
        yield `${emoji}\ufe0f`;
        yield `${emoji}\ufe0e`;
        yield `${emoji}${emoji}`;
      }
    }
    expect(EMOJI.length).toBeGreaterThan(1500);
    expect(differences(inputs())).toEqual([]);
  });

  it("measures styled text, marks, scripts and controls as string-width does", () => {
    const samples = [
      "\x1b[31m漢字\x1b[39m and \x1b[1m👍🏽\x1b[22m",
      "\x1b]8;;https://example.com\x07link\x1b]8;;\x07",
      "\u009b31mred",
      "e\u0301 and a\u0308\u0323",
      "क्षि नमस्ते ক্ষ กำ ที่ ﾊﾞ",
      "\u1100\u1161\u11a8 한국어",
      "\u0600\u0661\u0662 \u0601x",
      "tab\there\r\nnext",
      "zero\u200bwidth\u200djoin\u2060er",
      "👩‍💻👨‍👩‍👧‍👦🏳️‍🌈🇩🇪1️⃣#⃣",
      "─│╭╮·…→✓ ❤ ❤️",
      "\ufeffbom",
    ];
    expect(differences(samples)).toEqual([]);
    expect(stringWidth("")).toBe(0);
    expect(stringWidth("plain ascii")).toBe(11);
  });

  it("hands string-width's options to string-width", () => {
    expect(stringWidth("±§", { ambiguousIsNarrow: false })).toBe(
      original("±§", { ambiguousIsNarrow: false }),
    );
    expect(stringWidth("\x1b[31mx\x1b[39m", { countAnsiEscapeCodes: true })).toBe(
      original("\x1b[31mx\x1b[39m", { countAnsiEscapeCodes: true }),
    );
  });

  it("gives a lone emoji two columns and remembers every other grapheme's answer", () => {
    expect(graphemeWidth("📌")).toBe(2);
    expect(graphemeWidth("🇩🇪")).toBe(original("🇩🇪"));
    expect(graphemeWidth("e\u0301")).toBe(1);
  });
});

const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";

describe("parley's string-width, for a terminal that draws code points (the default)", () => {
  it("is the default", () => {
    expect(widthMode()).toBe("code-points");
  });

  it("measures an emoji ZWJ sequence as the sum of its parts", () => {
    expect(stringWidth(FAMILY)).toBe(6);
    expect(stringWidth(`a${FAMILY}b`)).toBe(8);
    expect(stringWidth("\u{1F9D1}\u200D\u{1F4BB}")).toBe(4);
    // 🏳 is one column without VS16: as tmux draws 🏳‍🌈.
    expect(stringWidth("\u{1F3F3}\u200D\u{1F308}")).toBe(3);
    // A joiner that joins no emoji is measured as string-width does.
    expect(stringWidth("zero\u200bwidth\u200djoin")).toBe(original("zero\u200bwidth\u200djoin"));
  });

  it("measures every emoji without its joiners, and every code point, as string-width does", () => {
    expect(differences(everyCodePoint())).toEqual([]);
    function* inputs(): Generator<string> {
      for (const emoji of EMOJI) {
        const parts = withoutEmojiJoiners(emoji);
        yield parts;
        yield `a${parts}b`;
      }
    }
    expect(differences(inputs())).toEqual([]);
  });

  it("keeps each mode's answers apart", () => {
    expect(graphemeWidth(FAMILY)).toBe(6);
    setWidthMode("clusters");
    expect(graphemeWidth(FAMILY)).toBe(2);
    setWidthMode("code-points");
    expect(graphemeWidth(FAMILY)).toBe(6);
  });
});
