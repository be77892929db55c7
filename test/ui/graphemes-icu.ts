// ICU's answers beside src/ui/text/graphemes.ts's, for its tests.
import { graphemes } from "../../src/ui/text/graphemes.ts";

export const icu = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * `c` beside each kind of code point it could form a grapheme with (UAX #29): itself, any
 * letter (so `c` extends, is a spacing mark or is prepended), Hangul jamo and syllables,
 * a regional indicator, and LF (after CR).
 */
const contexts = (c: string) => [
  c + c,
  `a${c}`,
  `${c}a`,
  `\u1100${c}`,
  `${c}\u1161`,
  `\uAC00${c}`,
  `${c}\u11A8`,
  `\u{1F1E6}${c}`,
  `${c}\n`,
];

/** Inputs where the two split `c` and its neighbours differently, as [input, ours, ICU]. */
export function disagreements(c: string): [string, string[], string[]][] {
  const out: [string, string[], string[]][] = [];
  for (const input of contexts(c)) {
    const ours = Array.from(graphemes.segment(input), (s) => s.segment);
    const theirs = Array.from(icu.segment(input), (s) => s.segment);
    if (ours.join("\0") !== theirs.join("\0")) out.push([input, ours, theirs]);
  }
  return out;
}

/** Every `step`th code point (but surrogates) from `from` to `to`, as a string. */
export function* codePoints(from: number, to: number, step = 1): Generator<string> {
  for (let c = from; c <= to; c += step) {
    if (c < 0xd800 || c > 0xdfff) yield String.fromCodePoint(c);
  }
}
