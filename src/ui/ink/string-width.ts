// string-width as everything in the bundle calls it (Ink, wrap-ansi, slice-ansi, parley's
// own text code): scripts/ink-plugin.ts puts this in its place. The same answers, by
// grapheme, remembered: string-width measures each grapheme with Unicode-property regular
// expressions, and the first emoji it sees compiles `\p{RGI_Emoji}`, some 11 ms, on the
// way to the first frame (every demo list shows 📌 and 🎉). A lone code point that is
// drawn as an emoji by default (Emoji_Presentation) is 2 columns without that regex; any
// other grapheme is asked of string-width once. test/ui/string-width.test.ts holds it to
// string-width over every code point and every emoji sequence node-emoji knows.
//
// Two ways to measure, as the terminal draws (src/client/graphemes.ts asks it at start):
// "clusters", a terminal that says it clusters graphemes (mode 2027): one emoji ZWJ
// sequence is one 2-column character, as string-width says; "code points", every other
// terminal, drawing each part of a ZWJ sequence as wcwidth says, often as they arrive (tmux
// 3.3a joins them or not depending on where its reads fall): such a sequence is the sum of
// its parts. parley draws the parts then (src/ui/text/width.ts drops the joiners), so this
// is only a backstop for text that was not put in that form.
import stringWidthOriginal from "string-width";
import stripAnsi from "strip-ansi";
import { graphemes } from "../text/graphemes.ts";
import { textCaches } from "./remembered.ts";

type Options = { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean };

const NON_ASCII_OR_CONTROL = /[^\x20-\x7e]/;
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;
const MAX_REMEMBERED = 4096;
const EMOJI_JOINER =
  /\u200D(?=\p{Extended_Pictographic})|(?<=\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F]*)\u200D/u;
const EMOJI_JOINERS = new RegExp(EMOJI_JOINER.source, "gu");

export type WidthMode = "clusters" | "code-points";

let mode: WidthMode = "code-points";
const rememberedBy: Record<WidthMode, Map<string, number>> = {
  clusters: new Map(),
  "code-points": new Map(),
};
let remembered = rememberedBy[mode];
textCaches.add(rememberedBy.clusters);
textCaches.add(rememberedBy["code-points"]);

/**
 * How graphemes are measured from now on, for this whole process (every Ink instance in
 * it): "code-points" unless the one terminal it draws on clusters graphemes.
 */
export function setWidthMode(next: WidthMode): void {
  mode = next;
  remembered = rememberedBy[next];
}

export function widthMode(): WidthMode {
  return mode;
}

/** Whether `text` holds a zero width joiner that joins emoji. */
export function hasEmojiJoiner(text: string): boolean {
  return text.includes("\u200D") && EMOJI_JOINER.test(text);
}

/** `text` with the joiners between emoji taken out: each part its own grapheme. */
export function withoutEmojiJoiners(text: string): string {
  return hasEmojiJoiner(text) ? text.replace(EMOJI_JOINERS, "") : text;
}

function measure(grapheme: string): number {
  const loneCodePoint = grapheme.length === ((grapheme.codePointAt(0) ?? 0) > 0xffff ? 2 : 1);
  if (loneCodePoint && EMOJI_PRESENTATION.test(grapheme)) return 2;
  if (mode === "code-points" && hasEmojiJoiner(grapheme)) {
    let width = 0;
    for (const { segment } of graphemes.segment(withoutEmojiJoiners(grapheme))) {
      width += measure(segment);
    }
    return width;
  }
  return stringWidthOriginal(grapheme);
}

/** Columns of one grapheme. */
export function graphemeWidth(grapheme: string): number {
  if (grapheme.length === 1) {
    const c = grapheme.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  let width = remembered.get(grapheme);
  if (width === undefined) {
    width = measure(grapheme);
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
  for (const { segment } of graphemes.segment(text)) width += graphemeWidth(segment);
  return width;
}
