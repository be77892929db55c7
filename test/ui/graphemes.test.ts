// src/ui/text/graphemes.ts answers as Intl.Segmenter does, asking ICU only for text that
// can hold a grapheme of several code points. (Every code point: graphemes.soak.test.ts.)
import { describe, expect, it } from "vitest";
import { graphemes } from "../../src/ui/text/graphemes.ts";
import { codePoints, disagreements, icu } from "./graphemes-icu.ts";

const all = (s: Iterable<Intl.SegmentData>) =>
  Array.from(s, ({ segment, index, input }) => ({ segment, index, input }));

const SAMPLES = [
  "",
  "plain ascii",
  "│▸📌 bob                        2m ●2│",
  "中文 and 日本語…",
  "café",
  "cafe\u0301", // e + combining acute
  "👍🏽 thumbs",
  "❤️ heart",
  "👨‍👩‍👧 family",
  "🇫🇷🇩🇪 flags 🇫",
  "한국어 \u1100\u1161\u11A8",
  "line\r\nnext",
  "\u0E01\u0E33 Thai sara am",
  "\u0600\u0661 Arabic number sign",
  "lone \uD800 high and \uDC00 low",
  "tags 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
];

describe("graphemes", () => {
  it("splits text as Intl.Segmenter does, with the same indexes and input", () => {
    for (const text of SAMPLES) {
      expect(all(graphemes.segment(text)), text).toEqual(all(icu.segment(text)));
    }
  });

  it("finds the grapheme containing any index as Intl.Segmenter does", () => {
    for (const text of SAMPLES) {
      for (let i = -1; i <= text.length; i++) {
        expect(graphemes.segment(text).containing(i), `${text} at ${i}`).toEqual(
          icu.segment(text).containing(i),
        );
      }
      expect(graphemes.segment(text).containing(), text).toEqual(icu.segment(text).containing());
    }
  });

  it("agrees with ICU beside joiners, over the blocks where graphemes join", () => {
    const blocks: [number, number][] = [
      [0x0000, 0x036f], // controls, Latin, combining marks
      [0x0600, 0x070f], // Arabic, with its prepended number signs
      [0x0900, 0x097f], // Devanagari: viramas, spacing marks, conjuncts
      [0x0e00, 0x0eff], // Thai and Lao, with SARA AM
      [0x1100, 0x11ff], // Hangul jamo
      [0x200b, 0x200f], // zero width (non-)joiners
      [0xac00, 0xac1f], // Hangul syllables
      [0xfe00, 0xfe0f], // variation selectors
      [0xff9e, 0xff9f], // halfwidth voiced marks
      [0x1f1e6, 0x1f1ff], // regional indicators
      [0x1f3fb, 0x1f3ff], // skin tones
      [0x1f600, 0x1f64f], // emoji
      [0xe0000, 0xe007f], // tags
    ];
    const found = [];
    for (const [from, to] of blocks) {
      for (const c of codePoints(from, to)) found.push(...disagreements(c));
    }
    expect(found).toEqual([]);
  });
});
