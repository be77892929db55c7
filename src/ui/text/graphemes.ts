// Graphemes (UAX #29), by ICU's Intl.Segmenter only where the text can hold one of more
// than one code point. The first Intl.Segmenter costs some 8 ms (ICU loads its break
// rules) on the way to a first frame drawn from the server's answers, and every frame
// measures lines of box drawing and "…", which segment one code point at a time anyway.
// A grapheme of several code points needs one of the characters below: one that extends
// or joins (Grapheme_Extend, marks, ZWJ, skin tones), a prepended one, a Hangul jamo, a
// regional indicator, CR (before LF). The bundle gives this object to Ink's dependencies
// too, in place of the segmenters they make as they load (rolldown.config.ts).
// test/ui/graphemes.test.ts holds it to ICU over every code point beside each of these.
const MAY_JOIN =
  /\u200D|[\u{1F3FB}-\u{1F3FF}]|[\r\p{Grapheme_Extend}\p{M}\u200C\p{Regional_Indicator}\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u0D4E\u0E33\u0EB3\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\uFF9E\uFF9F\u{110BD}\u{110CD}\u{111C2}\u{111C3}\u{113D1}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}\u{16D63}\u{16D67}-\u{16D6A}\u{E0020}-\u{E007F}]/u;

/** What Intl.Segmenter's `segment` answers, as far as anything here uses it. */
export type GraphemeSegments = Iterable<Intl.SegmentData> & {
  containing(index?: number): Intl.SegmentData | undefined;
};

/** The code point that starts at `index` (a lone surrogate is one of its own). */
function codePointAt(input: string, index: number): Intl.SegmentData {
  const size = (input.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
  return { segment: input.slice(index, index + size), index, input };
}

/** The graphemes of text that holds none of MAY_JOIN: its code points. */
class CodePoints implements GraphemeSegments {
  private readonly input: string;

  constructor(input: string) {
    this.input = input;
  }

  *[Symbol.iterator](): Generator<Intl.SegmentData> {
    for (let index = 0; index < this.input.length; ) {
      const point = codePointAt(this.input, index);
      yield point;
      index += point.segment.length;
    }
  }

  containing(at = 0): Intl.SegmentData | undefined {
    const i = Math.trunc(at);
    if (!(i >= 0 && i < this.input.length)) return undefined;
    // Inside a surrogate pair when the code point one before is astral.
    const pairStart = i > 0 && (this.input.codePointAt(i - 1) ?? 0) > 0xffff;
    return codePointAt(this.input, pairStart ? i - 1 : i);
  }
}

let icu: Intl.Segmenter | undefined;

/** A grapheme segmenter: Intl.Segmenter's answers, ICU's only where needed. */
export const graphemes = {
  segment(text: string): GraphemeSegments {
    if (!MAY_JOIN.test(text)) return new CodePoints(text);
    icu ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
    return icu.segment(text);
  },
};
