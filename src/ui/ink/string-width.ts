// string-width as everything in the bundle calls it (Ink, wrap-ansi, slice-ansi, parley's
// own text code): scripts/ink-plugin.ts puts this in its place. The same answers, by
// grapheme, remembered: string-width measures each grapheme with Unicode-property regular
// expressions, and the first emoji it sees compiles `\p{RGI_Emoji}`, some 11 ms, on the
// way to the first frame (every demo list shows 📌 and 🎉). A lone code point that is
// drawn as an emoji by default (Emoji_Presentation) is 2 columns without that regex; any
// other grapheme is asked of string-width once. test/ui/string-width.test.ts holds it to
// string-width over every code point and every emoji sequence node-emoji knows.
import stringWidthOriginal from "string-width";
import stripAnsi from "strip-ansi";

type Options = { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean };

const NON_ASCII_OR_CONTROL = /[^\x20-\x7e]/;
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;
const segmenter = new Intl.Segmenter();
const MAX_REMEMBERED = 4096;
const remembered = new Map<string, number>();

/** Columns of one grapheme. */
export function graphemeWidth(grapheme: string): number {
  if (grapheme.length === 1) {
    const c = grapheme.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  let width = remembered.get(grapheme);
  if (width === undefined) {
    const loneCodePoint = grapheme.length === ((grapheme.codePointAt(0) ?? 0) > 0xffff ? 2 : 1);
    width = loneCodePoint && EMOJI_PRESENTATION.test(grapheme) ? 2 : stringWidthOriginal(grapheme);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(grapheme, width);
  }
  return width;
}

export default function stringWidth(input: string, options?: Options): number {
  if (typeof input !== "string" || input.length === 0) return 0;
  if (options?.ambiguousIsNarrow === false || options?.countAnsiEscapeCodes === true) {
    return stringWidthOriginal(input, options);
  }
  const text = input.includes("\x1b") || input.includes("\x9b") ? stripAnsi(input) : input;
  if (!NON_ASCII_OR_CONTROL.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}
