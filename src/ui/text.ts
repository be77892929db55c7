// Terminal-safe text: sanitising server text, display width, wrapping, truncating, and the
// short time / size labels the panes show. Pure functions; they run on every visible line of
// every frame, so the common case (short printable ASCII) takes a fast path without
// allocating. Memoising whole messages is the caller's job.
//
// What `sanitize` shows in place of things that could drive the terminal (all printable,
// one column wide, so a reader sees that something was there and layout stays exact):
//   ␀ … ␟  (U+2400 + code)  a C0 control character: ␇ BEL, ␈ BS, ␍ a lone CR, ␛ a lone ESC.
//                           "\n" is kept with `keepNewlines`, else shown as ␊; "\r\n" counts
//                           as one newline. Tabs become spaces (`tabWidth`, default 4).
//   ␡  (U+2421)             DEL.
//   ␛  (U+241B)             a whole escape sequence, 7-bit or 8-bit: CSI (ESC [ … final),
//                           OSC (ESC ] … BEL | ST), DCS / SOS / PM / APC (ESC P|X|^|_ … ST),
//                           and the short ones (ESC 7, ESC ( B, ESC c …). An unterminated
//                           sequence only loses its introducer; the rest shows as plain text.
//   �  (U+FFFD)             a C1 control (U+0080–U+009F) that starts no complete sequence, a
//                           bidi control (U+061C, U+200E/F, U+202A–E, U+2066–9), a lone
//                           surrogate.
// U+2028 / U+2029 (line / paragraph separator) count as newlines.

import stringWidth from "string-width";

export type SanitizeOptions = {
  /** Keep "\n" (and turn "\r\n", U+2028, U+2029 into "\n") instead of showing ␊. */
  keepNewlines?: boolean;
  /** Remove unsafe characters instead of showing placeholders (for pasted drafts); without
   * `keepNewlines` a newline becomes a space. */
  strip?: boolean;
  /** Spaces per tab, default 4. */
  tabWidth?: number;
};

const ESC_MARK = "\u241b";
const DEL_MARK = "\u2421";
const BAD_MARK = "\ufffd";
const LF_MARK = "\u240a";

// Anything `sanitize` has to look at. `\p{Cs}` in a `u` regex matches only lone surrogates.
const UNSAFE =
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\p{Cs}]/u;
const UNSAFE_EXCEPT_LF =
  /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\p{Cs}]/u;
const NON_ASCII_OR_CONTROL = /[^\x20-\x7e]/;

/** Bidi controls, and U+2028 / U+2029 (line / paragraph separator). */
function isBidiOrSeparator(c: number): boolean {
  return (
    c === 0x061c ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x200e ||
    c === 0x200f ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069)
  );
}

/** C1 introducers of control strings: DCS, SOS, OSC, PM, APC. */
function isStringIntroducerC1(c: number): boolean {
  return c === 0x90 || c === 0x98 || c === 0x9d || c === 0x9e || c === 0x9f;
}

/** End of a CSI body starting at `j` (after ESC [ or U+009B), or -1 when incomplete. */
function csiEnd(s: string, j: number): number {
  const n = s.length;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c >= 0x20 && c <= 0x3f) j++;
    else return c >= 0x40 && c <= 0x7e ? j + 1 : -1;
  }
  return -1;
}

/**
 * End of a control string (OSC / DCS / SOS / PM / APC) body starting at `j`, or -1 when it is
 * not terminated (by BEL, ESC \ or U+009C) before another ESC, another introducer, or the end.
 * Stopping at the next introducer keeps hostile input linear.
 */
function controlStringEnd(s: string, j: number): number {
  const n = s.length;
  for (; j < n; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x07 || c === 0x9c) return j + 1;
    if (c === 0x1b) return s.charCodeAt(j + 1) === 0x5c ? j + 2 : -1;
    if (c === 0x9b || isStringIntroducerC1(c)) return -1;
  }
  return -1;
}

/** End of the escape sequence whose ESC is at `i`, or -1 for a lone ESC. */
function escapeEnd(s: string, i: number): number {
  const next = s.charCodeAt(i + 1); // NaN at the end
  if (next === 0x5b) return csiEnd(s, i + 2); // [
  if (next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) {
    return controlStringEnd(s, i + 2); // ] P X ^ _
  }
  // nF / Fp / Fe / Fs: intermediates 0x20–0x2F, then a final byte 0x30–0x7E.
  let j = i + 1;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c >= 0x20 && c <= 0x2f) j++;
    else return c >= 0x30 && c <= 0x7e ? j + 1 : -1;
  }
  return -1;
}

/**
 * Makes text from the server safe to print: nothing that could move the cursor, change
 * colours, set the title, write the clipboard or reorder text survives. See the table at the
 * top of this file for what replaces what. Idempotent (for the same options), never throws.
 */
export function sanitize(s: string, options?: SanitizeOptions): string {
  if (typeof s !== "string") s = s == null ? "" : String(s);
  const keepNewlines = options?.keepNewlines === true;
  if (!(keepNewlines ? UNSAFE_EXCEPT_LF : UNSAFE).test(s)) return s;
  const strip = options?.strip === true;
  const tabWidth = Math.max(0, Math.min(16, Math.floor(options?.tabWidth ?? 4) || 0));
  const newline = keepNewlines ? "\n" : strip ? " " : LF_MARK;
  const esc = strip ? "" : ESC_MARK;
  const bad = strip ? "" : BAD_MARK;

  let out = "";
  let copied = 0; // s[copied, i) is safe and not yet appended
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) {
      i++;
      continue;
    }
    if (c >= 0xa0 && (c < 0xd800 || c > 0xdfff) && !isBidiOrSeparator(c)) {
      i++;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i += 2;
        continue;
      }
    }
    if (c === 0x0a && keepNewlines) {
      i++;
      continue;
    }
    // Something to replace: flush the safe run before it.
    if (i > copied) out += s.slice(copied, i);
    let replacement: string;
    let end = i + 1;
    if (c === 0x1b) {
      const e = escapeEnd(s, i);
      if (e > 0) end = e;
      replacement = esc;
    } else if (c === 0x9b || isStringIntroducerC1(c)) {
      const e = c === 0x9b ? csiEnd(s, i + 1) : controlStringEnd(s, i + 1);
      if (e > 0) end = e;
      replacement = e > 0 ? esc : bad;
    } else if (c === 0x0a || c === 0x2028 || c === 0x2029) {
      replacement = newline;
    } else if (c === 0x0d) {
      if (s.charCodeAt(i + 1) === 0x0a) {
        end = i + 2;
        replacement = newline;
      } else {
        replacement = strip ? "" : "\u240d";
      }
    } else if (c === 0x09) {
      replacement = " ".repeat(tabWidth);
    } else if (c < 0x20) {
      replacement = strip ? "" : String.fromCharCode(0x2400 + c);
    } else if (c === 0x7f) {
      replacement = strip ? "" : DEL_MARK;
    } else {
      replacement = bad; // C1, bidi control, lone surrogate
    }
    out += replacement;
    i = end;
    copied = end;
  }
  return out + s.slice(copied);
}

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

/** Server text as it is drawn: sanitised, in its terminal form. */
export function screenText(s: string, options?: SanitizeOptions): string {
  return terminalForm(sanitize(s, options));
}

/** Columns the string takes in a terminal, drawn in its terminalForm. */
export function displayWidth(s: string): number {
  return stringWidth(terminalForm(s));
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

// Widths of graphemes seen lately: string-width costs about a microsecond per call on
// non-ASCII, a Map lookup a few dozen nanoseconds. Bounded; cleared when full.
const widthCache = new Map<string, number>();

function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  let w = widthCache.get(g);
  if (w === undefined) {
    if (widthCache.size >= 4096) widthCache.clear();
    w = stringWidth(terminalForm(g));
    widthCache.set(g, w);
  }
  return w;
}

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
      for (const { segment, index } of graphemes.segment(para)) {
        step(start + index, graphemeWidth(segment), segment === " ");
      }
    }
    rows.push({ start: rowStart, end, width: col, hard: true });
    if (nl === -1) return rows;
    start = nl + 1;
  }
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
  const lines: string[] = [];
  let continuation = false;
  for (const row of wrapRanges(s, max)) {
    let a = row.start;
    let b = row.end;
    if (continuation) while (a < b && s.charCodeAt(a) === 32) a++;
    if (!row.hard) while (b > a && s.charCodeAt(b - 1) === 32) b--;
    if (!(continuation && a === b)) {
      const line = s.slice(a, b);
      lines.push(row.width > max ? truncate(line, max) : line);
    }
    continuation = !row.hard;
  }
  return lines;
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

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DAY = 86_400;

/**
 * Compact age for the sidebar: "now" (under a minute, or in the future), "2m", "5h", "3d"
 * (up to 6 days), then the local date "Nov 3", with the year when it is not this year's:
 * "Nov 3 2025". Not a number: "".
 */
export function relativeTime(unixSeconds: number, nowSeconds: number): string {
  if (!Number.isFinite(unixSeconds) || !Number.isFinite(nowSeconds)) return "";
  const age = nowSeconds - unixSeconds;
  if (age < 60) return "now";
  if (age < 3600) return `${Math.floor(age / 60)}m`;
  if (age < DAY) return `${Math.floor(age / 3600)}h`;
  if (age < 7 * DAY) return `${Math.floor(age / DAY)}d`;
  const date = new Date(unixSeconds * 1000);
  const label = `${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return date.getFullYear() === new Date(nowSeconds * 1000).getFullYear()
    ? label
    : `${label} ${date.getFullYear()}`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Local 24-hour clock time, "09:05". Not a number: "". */
export function clockTime(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds)) return "";
  const date = new Date(unixSeconds * 1000);
  return `${two(date.getHours())}:${two(date.getMinutes())}`;
}

/**
 * Day heading for the message list, by local calendar day: "Today", "Yesterday", the weekday
 * ("Monday") for 2–6 days ago, else "Mon 3 Nov 2025" (also for days in the future).
 */
export function dayLabel(unixSeconds: number, nowSeconds: number): string {
  if (!Number.isFinite(unixSeconds) || !Number.isFinite(nowSeconds)) return "";
  const date = new Date(unixSeconds * 1000);
  const now = new Date(nowSeconds * 1000);
  const dayOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  // Rounding absorbs 23- and 25-hour days around daylight-saving changes.
  const days = Math.round((dayOf(now) - dayOf(date)) / (DAY * 1000));
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  const weekday = WEEKDAYS[date.getDay()]!;
  if (days > 1 && days < 7) return weekday;
  return `${weekday.slice(0, 3)} ${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

const UNITS = ["B", "KB", "MB", "GB", "TB"];

/** "812 B", "1.2 KB", "34 MB" (1024-based; one decimal below 10). Invalid or negative: "0 B". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "0 B";
  if (n < 1024) return `${Math.round(n)} B`;
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  let shown = value < 9.95 ? value.toFixed(1) : String(Math.round(value));
  if (shown === "1024" && unit < UNITS.length - 1) {
    unit++;
    shown = "1.0";
  }
  return `${shown} ${UNITS[unit]}`;
}
