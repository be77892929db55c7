// Display width: the columns text takes in a terminal, and cutting or padding text to a
// number of columns, by grapheme. Pure; runs on every visible line of every frame, so short
// printable ASCII takes a fast path without allocating.
import stringWidth, { graphemeWidth as measuredGraphemeWidth } from "../ink/string-width.ts";

/** Anything but printable ASCII: text without it is one column a character. */
export const NON_ASCII_OR_CONTROL = /[^\x20-\x7e]/;

// Terminals disagree about a few emoji: tmux 3.3 draws 👍🏽 (skin tone) in 4 columns and ❤️
// (VS16) in 1, where string-width and Ink say 2. A line that is wider on screen than Ink
// thinks wraps at the edge and corrupts the frame, so these width-changing code points
// are dropped from what is drawn (👍🏽 shows as 👍, ❤️ as ❤) and from what is measured. The
// text itself (drafts, what is sent) keeps them.
const UNSTABLE_WIDTH = /[\u{1F3FB}-\u{1F3FF}\uFE0F]/gu;
const HAS_UNSTABLE_WIDTH = /[\u{1F3FB}-\u{1F3FF}\uFE0F]/u;

/** The form of `s` that every terminal draws at the width string-width computes. */
export function terminalForm(s: string): string {
  return HAS_UNSTABLE_WIDTH.test(s) ? s.replace(UNSTABLE_WIDTH, "") : s;
}

/** Columns the string takes in a terminal, drawn in its terminalForm. */
export function displayWidth(s: string): number {
  return stringWidth(terminalForm(s));
}

export const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

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
  for (const { segment, index } of graphemes.segment(s)) {
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
