// Display width: the columns text takes in a terminal, and cutting or padding text to a
// number of columns, by grapheme. Pure; runs on every visible line of every frame, so short
// printable ASCII takes a fast path without allocating.
import stringWidth, {
  graphemeWidth as measuredGraphemeWidth,
  widthMode,
  withoutEmojiJoiners,
} from "../ink/string-width.ts";
import { graphemes } from "./graphemes.ts";

/** Anything but printable ASCII: text without it is one column a character. */
export const NON_ASCII_OR_CONTROL = /[^\x20-\x7e]/;

// Terminals disagree about a few emoji: tmux 3.3 draws 👍🏽 (skin tone) in 4 columns and ❤️
// (VS16) in 1, where string-width and Ink say 2; and it draws an emoji ZWJ sequence
// (👨‍👩‍👧) in 2, 4 or 6 columns depending on where its reads fall. A line that is wider on
// screen than Ink thinks wraps at the edge and the screen drifts. So unless the terminal
// said it clusters graphemes (mode 2027, src/client/graphemes.ts; such a terminal draws
// them all at string-width's width), these are drawn in a form whose width is certain:
// without skin tones and VS16 (👍🏽 shows as 👍, ❤️ as ❤) and without the joiners between
// emoji (👨‍👩‍👧 as its parts, 👨👩👧, 2 columns each everywhere). Nor does a joiner end a
// grapheme: tmux 3.3 draws any non-ASCII character that follows one into the joiner's cell
// (a list row cut as "a\u200D…" drew its "…" over the "a", one column short). A joiner
// inside one (an Indic conjunct) stays. A lone regional indicator
// (half a flag: 1 column in tmux, 2 elsewhere) is drawn as its letter in every terminal.
// The text itself (drafts, what is sent) keeps them all.
const UNSTABLE_WIDTH = /[\u{1F3FB}-\u{1F3FF}\uFE0F]/gu;
const HAS_UNSTABLE_WIDTH = /[\u{1F3FB}-\u{1F3FF}\uFE0F]/u;
const REGIONAL_INDICATORS =
  /(\p{Regional_Indicator}\p{Regional_Indicator})|\p{Regional_Indicator}/gu;
const HAS_REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;

function letterForLoneIndicator(match: string, pair: string | undefined): string {
  return pair ?? String.fromCharCode(0x41 + (match.codePointAt(0)! - 0x1f1e6));
}

const TRAILING_JOINERS = /\u200D+$/;

/** `s` without the zero width joiners that end a grapheme. */
function withoutEndingJoiners(s: string): string {
  let out = "";
  for (const { segment } of graphemes.segment(s)) {
    out += segment.endsWith("\u200D") ? segment.replace(TRAILING_JOINERS, "") : segment;
  }
  return out;
}

/** The form of `s` that this terminal draws at the width string-width computes. */
export function terminalForm(s: string): string {
  if (!NON_ASCII_OR_CONTROL.test(s)) return s;
  let form = s;
  if (widthMode() === "code-points") {
    if (HAS_UNSTABLE_WIDTH.test(form)) form = form.replace(UNSTABLE_WIDTH, "");
    form = withoutEmojiJoiners(form);
    if (form.includes("\u200D")) form = withoutEndingJoiners(form);
  }
  if (HAS_REGIONAL_INDICATOR.test(form))
    form = form.replace(REGIONAL_INDICATORS, letterForLoneIndicator);
  return form;
}

/** Columns the string takes in a terminal, drawn in its terminalForm. */
export function displayWidth(s: string): number {
  return stringWidth(terminalForm(s));
}

const EMOJI_PART_END = /\u200D(?=\p{Extended_Pictographic})/gu;

/**
 * The units of `s` as this terminal draws them: its graphemes, except that where the
 * terminal does not cluster, an emoji ZWJ sequence is its parts (each part keeps the
 * joiner after it), since that is what is drawn. Wrapping and cutting go by these.
 */
export function* drawnUnits(s: string): Generator<{ segment: string; index: number }> {
  const split = widthMode() === "code-points";
  for (const unit of graphemes.segment(s)) {
    const { segment, index } = unit;
    if (!split || segment.length < 4 || !segment.includes("\u200D")) {
      yield unit;
      continue;
    }
    let from = 0;
    for (const m of segment.matchAll(EMOJI_PART_END)) {
      const to = m.index + 1;
      yield { segment: segment.slice(from, to), index: index + from };
      from = to;
    }
    yield { segment: segment.slice(from), index: index + from };
  }
}

/** Columns of one grapheme (remembered by src/ui/ink/string-width.ts). */
export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  return measuredGraphemeWidth(terminalForm(g));
}

/**
 * Cuts `s` to at most `width` columns, by grapheme, ending with `ellipsis` when it had to cut.
 * Meant for one line of sanitised text.
 */
export function truncate(s: string, width: number, ellipsis = "…"): string {
  if (!(width >= 1)) return "";
  const max = Math.floor(width);
  if (s.length * 2 <= max) return s; // no code unit is wider than 2 columns
  const ascii = !NON_ASCII_OR_CONTROL.test(s);
  if (ascii && s.length <= max) return s;
  const ellipsisWidth = ellipsis === "…" ? 1 : stringWidth(ellipsis);
  if (ellipsisWidth > max) return truncate(ellipsis, max, "");
  const room = max - ellipsisWidth;
  if (ascii) return s.slice(0, room) + ellipsis;
  // One pass that stops as soon as the text is known not to fit.
  let col = 0;
  let cut = 0;
  for (const { segment, index } of drawnUnits(s)) {
    col += graphemeWidth(segment);
    if (col > max) return s.slice(0, cut) + ellipsis;
    if (col <= room) cut = index + segment.length;
  }
  return s;
}

/** Pads `s` with spaces to `width` columns (by display width); never cuts. */
export function padEnd(s: string, width: number): string {
  const w = displayWidth(s);
  return w >= width ? s : s + " ".repeat(Math.floor(width - w));
}
