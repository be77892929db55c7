// Wrapping: text laid out in rows of a number of columns, losslessly (`wrapRanges`, for the
// editor) or as display lines (`wrap`, for messages). Pure; short printable ASCII takes a
// fast path without allocating.
import { graphemes } from "./graphemes.ts";
import { drawnUnits, graphemeWidth, NON_ASCII_OR_CONTROL, truncate } from "./width.ts";

/** One visual row of `wrapRanges`: `text.slice(start, end)`, `width` columns. */
export type Row = {
  start: number;
  end: number;
  width: number;
  /** The row ends a paragraph (at a "\n" or the end of the text) rather than at a wrap. */
  hard: boolean;
};

function normalWidth(width: number): number {
  return Number.isFinite(width) && width >= 1 ? Math.floor(width) : 1;
}

/**
 * Lossless word wrap: splits `s` into rows of at most `width` columns, at "\n", else after a
 * run of spaces or next to a wide (CJK, emoji) character, else between graphemes for a word
 * longer than a row. Every character belongs to exactly one row except the "\n"s between
 * rows, so positions map back to the text; spaces are kept (the editor needs them). Never
 * splits a grapheme. A single grapheme wider than `width` (only possible for width 1) gets a
 * row of its own and overflows it. `wrap` builds display lines on top of this.
 */
export function wrapRanges(s: string, width: number): Row[] {
  return rangesOf(s, width, graphemes.segment);
}

/**
 * wrapRanges by `units`: graphemes for the editor (whose cursor never stops inside one),
 * the units they are drawn in for display lines (src/ui/text/width.ts drawnUnits: where the
 * terminal does not cluster, an emoji ZWJ sequence is drawn as its parts, and may be as
 * wide as it is long).
 */
function rangesOf(
  s: string,
  width: number,
  units: (text: string) => Iterable<{ segment: string; index: number }>,
): Row[] {
  const max = normalWidth(width);
  const rows: Row[] = [];
  let rowStart = 0;
  let col = 0;
  let lastBreak = -1;
  let lastBreakCol = 0;
  let prevSpace = false;
  let prevWide = false;

  const step = (i: number, w: number, space: boolean): void => {
    const wide = w >= 2;
    if (i > rowStart && !space && (prevSpace || wide || prevWide)) {
      lastBreak = i;
      lastBreakCol = col;
    }
    if (col + w > max && i > rowStart) {
      // A space that does not fit starts the next row (where `wrap` drops it) rather than
      // pushing the word before it down.
      if (!space && lastBreak > rowStart) {
        rows.push({ start: rowStart, end: lastBreak, width: lastBreakCol, hard: false });
        rowStart = lastBreak;
        col -= lastBreakCol;
      }
      if (col + w > max && i > rowStart) {
        rows.push({ start: rowStart, end: i, width: col, hard: false });
        rowStart = i;
        col = 0;
      }
      lastBreak = -1;
    }
    col += w;
    prevSpace = space;
    prevWide = wide;
  };

  let start = 0;
  for (;;) {
    const nl = s.indexOf("\n", start);
    const end = nl === -1 ? s.length : nl;
    rowStart = start;
    col = 0;
    lastBreak = -1;
    prevSpace = false;
    prevWide = false;
    const para = s.slice(start, end);
    if (!NON_ASCII_OR_CONTROL.test(para)) {
      if (para.length <= max) col = para.length;
      else for (let k = 0; k < para.length; k++) step(start + k, 1, para.charCodeAt(k) === 32);
    } else {
      for (const { segment, index } of units(para)) {
        step(start + index, graphemeWidth(segment), segment === " ");
      }
    }
    rows.push({ start: rowStart, end, width: col, hard: true });
    if (nl === -1) return rows;
    start = nl + 1;
  }
}

/** One display line of `wrapSpans`: `text.slice(start, end)`, wider than the width only
 * when it is a single grapheme wider than the whole width (`wrap` shows it as "…"). */
export type Span = { start: number; end: number; tooWide: boolean };

/**
 * Where `wrap`'s display lines lie in `s`: the same lines, as ranges of the text, so what
 * is known about parts of the text (where its links are) can follow it onto the lines.
 */
export function wrapSpans(s: string, width: number): Span[] {
  const max = normalWidth(width);
  if (s.length <= max && !NON_ASCII_OR_CONTROL.test(s)) {
    return [{ start: 0, end: s.length, tooWide: false }];
  }
  const spans: Span[] = [];
  let continuation = false;
  for (const row of rangesOf(s, max, drawnUnits)) {
    let a = row.start;
    let b = row.end;
    if (continuation) while (a < b && s.charCodeAt(a) === 32) a++;
    if (!row.hard) while (b > a && s.charCodeAt(b - 1) === 32) b--;
    if (!(continuation && a === b)) spans.push({ start: a, end: b, tooWide: row.width > max });
    continuation = !row.hard;
  }
  return spans;
}

/**
 * Word-wraps `s` into display lines of at most `width` columns (`width` below 1 counts as 1).
 * Respects "\n"; breaks at spaces (dropping the spaces at a break), next to wide characters,
 * and hard-breaks longer words by grapheme, never inside one. A grapheme wider than the whole
 * width (a wide character at width 1) is shown as "…". Expects sanitised text.
 */
export function wrap(s: string, width: number): string[] {
  const max = normalWidth(width);
  if (s.length <= max && !NON_ASCII_OR_CONTROL.test(s)) return [s];
  return wrapSpans(s, max).map(({ start, end, tooWide }) => {
    const line = s.slice(start, end);
    return tooWide ? truncate(line, max) : line;
  });
}
