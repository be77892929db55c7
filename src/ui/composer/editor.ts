// The composer's editing model: an immutable `{ value, cursor }` and pure functions on it.
// The cursor is a UTF-16 index that is always on a grapheme boundary (Intl.Segmenter), so
// Backspace after 👍🏽 or 👨‍👩‍👧 removes the whole thing and no edit leaves a lone surrogate.
// Functions return the same object when nothing changes, so `next !== state` means "changed".
//
// How Ink 8 reports keys (checked by feeding these bytes to a real Ink 8 `useInput` /
// `usePaste`; test/ui/editor.test.ts replays them):
//   \x7f and \x08          backspace:true, input ""   (Ink 8 reports BOTH as backspace, never
//                          as delete, so the key labelled Backspace deletes before the cursor)
//   \x1b\x7f, \x1b\x08     backspace:true, meta:true  (Alt+Backspace)
//   \x1b[3~                delete:true, input ""      (the Delete key; \x1b[3;5~ adds ctrl)
//   \x1b[H \x1b[1~ \x1bOH  home:true;  \x1b[F \x1b[4~ \x1bOF  end:true  (input "")
//   \x01 \x05 \x17 \x15 \x0b  ctrl:true, input "a" "e" "w" "u" "k"  (the letter, which must
//                          not be typed; \x02 \x06 \x04 likewise "b" "f" "d")
//   \x1bb, \x1bf           meta:true, input "b" / "f"  (Alt+B / Alt+F, also what macOS
//                          terminals send for Option+←/→)
//   \x1b[1;3D, \x1b[1;3C   leftArrow / rightArrow with meta:true, input ""  (Alt+←/→;
//                          \x1b[1;5D/C gives ctrl:true instead)
//   \x1b[200~a\r\nb\x1b[201~  only the usePaste handler, with the raw text "a\r\nb" (CR LF
//                          untouched); with no usePaste listener Ink hands it to useInput as
//                          input "a\r\nb", key {}
//   \r                     return:true, input "\r"; \t tab:true; \x1b[Z tab+shift; \x1b escape
// \x1b[3~, \x1b[1~, \x1b[4~ and \x1b[1;3D/C also carry eventType "press" (Ink's kitty parser
// claims them even without the kitty protocol); \x1b[H / \x1b[F do not. A single upper-case
// letter gets shift:true.
// Several control bytes in one read (a held Ctrl+W: "\x17\x17") arrive as ONE input with no
// key flag set, and an unbracketed paste arrives as plain input; both are handled below.
// With the kitty keyboard protocol, keys come as CSI u (e.g. \x1b[97;5u is ctrl+"a") with
// `eventType`; release events are swallowed here so a key is never applied twice.

import type { Key } from "ink";
import { graphemes } from "../text/graphemes.ts";
import { sanitize } from "../text/sanitize.ts";
import { displayWidth } from "../text/width.ts";
import { type Row, wrapRanges } from "../text/wrap.ts";

export type EditorState = { readonly value: string; readonly cursor: number };
export type InkKey = Key;
export type DraftLayout = { lines: string[]; cursorLine: number; cursorColumn: number };

// Made at the first word move: ICU's word rules stay out of memory until one is asked for.
let wordSegmenter: Intl.Segmenter | undefined;
const words = () => {
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  return wordSegmenter;
};
const EMPTY: EditorState = { value: "", cursor: 0 };

function at(value: string, cursor: number): EditorState {
  return { value, cursor };
}

/** Start of the grapheme that ends at `i`. */
function prevBoundary(value: string, i: number): number {
  if (i <= 0) return 0;
  return graphemes.segment(value).containing(i - 1)?.index ?? 0;
}

/** End of the grapheme that starts at `i`. */
function nextBoundary(value: string, i: number): number {
  if (i >= value.length) return value.length;
  const seg = graphemes.segment(value).containing(i);
  return seg ? seg.index + seg.segment.length : value.length;
}

/** `i` clamped into the text and moved to a grapheme boundary (forward or back). */
function snap(value: string, i: number, forward: boolean): number {
  if (!(i > 0)) return 0;
  if (i >= value.length) return value.length;
  const seg = graphemes.segment(value).containing(i);
  if (!seg || seg.index === i) return i;
  return forward ? seg.index + seg.segment.length : seg.index;
}

function lineStartOf(value: string, i: number): number {
  return i <= 0 ? 0 : value.lastIndexOf("\n", i - 1) + 1;
}

function lineEndOf(value: string, i: number): number {
  const nl = value.indexOf("\n", i);
  return nl === -1 ? value.length : nl;
}

function edit(state: EditorState, from: number, to: number, text = ""): EditorState {
  if (from === to && text === "") return state;
  const value = state.value.slice(0, from) + text + state.value.slice(to);
  return at(value, snap(value, from + text.length, text !== ""));
}

function move(state: EditorState, cursor: number): EditorState {
  return cursor === state.cursor ? state : at(state.value, cursor);
}

/** Pasted or typed text as it may enter a draft: newlines as "\n", no controls, tabs as spaces. */
export function normalizeInput(text: string): string {
  return sanitize(String(text).replace(/\r\n?/g, "\n"), { keepNewlines: true, strip: true });
}

/** A draft holding `value` (normalised like a paste), cursor at the end. */
export function fromText(value: string): EditorState {
  const clean = normalizeInput(value ?? "");
  return clean === "" ? EMPTY : at(clean, clean.length);
}

export function clear(state: EditorState): EditorState {
  return state.value === "" && state.cursor === 0 ? state : EMPTY;
}

/** Inserts typed or pasted text at the cursor: "\r\n" and "\r" become "\n", escape sequences and
 * other control characters are dropped, tabs become spaces. */
export function insert(state: EditorState, text: string): EditorState {
  const clean = normalizeInput(text);
  return clean === "" ? state : edit(state, state.cursor, state.cursor, clean);
}

/** Deletes the grapheme before the cursor. */
export function backspace(state: EditorState): EditorState {
  return edit(state, prevBoundary(state.value, state.cursor), state.cursor);
}

/** Deletes the grapheme after the cursor. */
export function deleteForward(state: EditorState): EditorState {
  return edit(state, state.cursor, nextBoundary(state.value, state.cursor));
}

export function left(state: EditorState): EditorState {
  return move(state, prevBoundary(state.value, state.cursor));
}

export function right(state: EditorState): EditorState {
  return move(state, nextBoundary(state.value, state.cursor));
}

/** A word segment for Alt+arrows: anything but whitespace and punctuation (emoji count). */
function isWordish(segment: string, isWordLike: boolean | undefined): boolean {
  return isWordLike === true || !/^[\s\p{P}]*$/u.test(segment);
}

function wordStartBefore(value: string, cursor: number): number {
  let target = 0;
  for (const { segment, index, isWordLike } of words().segment(value)) {
    if (index >= cursor) break;
    if (isWordish(segment, isWordLike)) target = index;
  }
  return snap(value, target, false);
}

function wordEndAfter(value: string, cursor: number): number {
  for (const { segment, index, isWordLike } of words().segment(value)) {
    const end = index + segment.length;
    if (end > cursor && isWordish(segment, isWordLike)) return snap(value, end, true);
  }
  return value.length;
}

/** Alt+← / Ctrl+←: to the start of this word, or of the previous one when already there. */
export function wordLeft(state: EditorState): EditorState {
  return move(state, wordStartBefore(state.value, state.cursor));
}

/** Alt+→ / Ctrl+→: to the end of this word, or of the next one (readline's forward-word). */
export function wordRight(state: EditorState): EditorState {
  return move(state, wordEndAfter(state.value, state.cursor));
}

/** Ctrl+W (readline unix-word-rubout): deletes back over whitespace (newlines included), then
 * over the whitespace-delimited word before it. */
export function deleteWordBefore(state: EditorState): EditorState {
  const { value } = state;
  let i = state.cursor;
  while (i > 0 && /^\s/u.test(value.slice(prevBoundary(value, i), i))) i = prevBoundary(value, i);
  while (i > 0 && !/^\s/u.test(value.slice(prevBoundary(value, i), i))) i = prevBoundary(value, i);
  return edit(state, i, state.cursor);
}

/** Alt+D / Ctrl+Delete: deletes to the end of this or the next word. */
export function deleteWordAfter(state: EditorState): EditorState {
  return edit(state, state.cursor, wordEndAfter(state.value, state.cursor));
}

/** Ctrl+U: deletes from the start of the current line to the cursor; at the start of a line
 * it deletes the newline before it instead (joining the lines, like Ctrl+K at the end). */
export function deleteToLineStart(state: EditorState): EditorState {
  const start = lineStartOf(state.value, state.cursor);
  return edit(state, start === state.cursor ? Math.max(0, start - 1) : start, state.cursor);
}

/** Ctrl+K: deletes from the cursor to the end of the current line; at the end of a line it
 * deletes the newline (emacs kill-line). */
export function deleteToLineEnd(state: EditorState): EditorState {
  const end = lineEndOf(state.value, state.cursor);
  return edit(
    state,
    state.cursor,
    end === state.cursor ? Math.min(state.value.length, end + 1) : end,
  );
}

/** Home / Ctrl+A: to the start of the current line; pressed again there, to the very start. */
export function home(state: EditorState): EditorState {
  const start = lineStartOf(state.value, state.cursor);
  return move(state, start === state.cursor ? 0 : start);
}

/** End / Ctrl+E: to the end of the current line; pressed again there, to the very end. */
export function end(state: EditorState): EditorState {
  const stop = lineEndOf(state.value, state.cursor);
  return move(state, stop === state.cursor ? state.value.length : stop);
}

/** The position in `value[start, end)` at display column `column` or the last one before it. */
function atColumn(value: string, start: number, end: number, column: number): number {
  let col = 0;
  for (const { segment, index } of graphemes.segment(value.slice(start, end))) {
    const w = displayWidth(segment);
    if (col + w > column) return start + index;
    col += w;
  }
  return end;
}

/** Visual rows of the draft: `wrapRanges` plus, after a paragraph whose last row is full, an
 * empty row, so the cursor after it has a cell of its own. */
function draftRows(value: string, width: number): Row[] {
  const max = Number.isFinite(width) && width >= 1 ? Math.floor(width) : 1;
  const rows: Row[] = [];
  for (const row of wrapRanges(value, max)) {
    if (row.hard && row.width >= max) {
      rows.push({ ...row, hard: false }, { start: row.end, end: row.end, width: 0, hard: true });
    } else rows.push(row);
  }
  return rows;
}

function rowOf(rows: Row[], cursor: number): number {
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    if (cursor >= row.start && (cursor < row.end || (cursor === row.end && row.hard))) return k;
  }
  return rows.length - 1;
}

/** The position at `column` in row `row`, staying inside it (a wrapped row's end is the next
 * row's start). */
function atRowColumn(value: string, row: Row, column: number): number {
  const i = atColumn(value, row.start, row.end, column);
  return i === row.end && !row.hard && i > row.start ? prevBoundary(value, i) : i;
}

function vertical(
  state: EditorState,
  delta: -1 | 1,
  width: number | undefined,
): EditorState | null {
  const { value, cursor } = state;
  if (width === undefined) {
    const start = lineStartOf(value, cursor);
    const column = displayWidth(value.slice(start, cursor));
    if (delta < 0) {
      if (start === 0) return null;
      return move(state, atColumn(value, lineStartOf(value, start - 1), start - 1, column));
    }
    const stop = lineEndOf(value, cursor);
    if (stop === value.length) return null;
    return move(state, atColumn(value, stop + 1, lineEndOf(value, stop + 1), column));
  }
  const rows = draftRows(value, width);
  const k = rowOf(rows, cursor);
  const target = rows[k + delta];
  if (!target) return null;
  const column = displayWidth(value.slice(rows[k]!.start, cursor));
  return move(state, atRowColumn(value, target, column));
}

/**
 * ↑ within a multi-line draft, keeping the display column where the line allows; null when
 * already on the first line (the caller may then edit the last message). Without `width` it
 * moves by "\n"-separated lines; with the composer's inner width, by wrapped rows as drawn.
 */
export function up(state: EditorState, width?: number): EditorState | null {
  return vertical(state, -1, width);
}

/** ↓, like `up`; null on the last line. */
export function down(state: EditorState, width?: number): EditorState | null {
  return vertical(state, 1, width);
}

/**
 * The draft as it is drawn `width` columns wide: word-wrapped rows (no row is wider than
 * `width`, except a lone wide character at width 1) and the cursor's row and display column.
 * The cursor column is always < `width`: after a full row that ends a line, the cursor goes to
 * an extra empty row below it; after a trailing "\n" it is on the empty last line.
 */
export function layoutDraft(state: EditorState, width: number): DraftLayout {
  const { value } = state;
  const rows = draftRows(value, width);
  const cursor = snap(value, state.cursor, false);
  const k = rowOf(rows, cursor);
  const row = rows[k]!;
  return {
    lines: rows.map((r) => value.slice(r.start, r.end)),
    cursorLine: k,
    cursorColumn: displayWidth(value.slice(row.start, cursor)),
  };
}

export type KeyResult = { state: EditorState; handled: boolean };

// Control bytes that Ink delivers as a single run when several arrive in one read.
const CTRL_RUN = /^[\x01\x02\x04\x05\x06\x0b\x15\x17]+$/;

function ctrlLetter(state: EditorState, letter: string): EditorState | undefined {
  switch (letter) {
    case "a":
      return home(state);
    case "e":
      return end(state);
    case "b":
      return left(state);
    case "f":
      return right(state);
    case "d":
      return state.value === "" ? undefined : deleteForward(state);
    case "h":
      return backspace(state);
    case "w":
      return deleteWordBefore(state);
    case "u":
      return deleteToLineStart(state);
    case "k":
      return deleteToLineEnd(state);
    default:
      return undefined;
  }
}

function metaLetter(state: EditorState, letter: string): EditorState | undefined {
  switch (letter) {
    case "b":
      return wordLeft(state);
    case "f":
      return wordRight(state);
    case "d":
      return deleteWordAfter(state);
    default:
      return undefined;
  }
}

function result(before: EditorState, after: EditorState | null | undefined): KeyResult {
  return after ? { state: after, handled: true } : { state: before, handled: false };
}

/**
 * Applies one Ink `useInput` event to the draft. Handled: printable input (inserted,
 * normalised), Backspace (\x7f or \x08), Delete, ←/→, Alt/Ctrl+←/→ and Alt+B/F (words),
 * Home/End and Ctrl+A/E, Ctrl+B/F (char), Ctrl+D (delete forward; not on an empty draft),
 * Ctrl+W and Alt/Ctrl+Backspace (word before), Alt+D and Ctrl+Delete (word after), Ctrl+U,
 * Ctrl+K, ↑/↓ inside a multi-line draft (by wrapped rows when `options.width` is given).
 * Not handled (`handled: false`, state unchanged), for the composer to decide: Enter, Esc,
 * Tab, PgUp/PgDn, ↑ on the first line, ↓ on the last, other Ctrl / Alt combinations (never
 * typed as letters) and keys with no text.
 */
export function applyKey(
  state: EditorState,
  input: string,
  key: InkKey,
  options?: { width?: number },
): KeyResult {
  if (key.eventType === "release") return { state, handled: true };
  if (key.return || key.escape || key.tab || key.pageUp || key.pageDown) return result(state, null);
  if (key.super || key.hyper) return result(state, null);
  const word = key.meta || key.ctrl;
  if (key.backspace) return result(state, word ? deleteWordBefore(state) : backspace(state));
  if (key.delete) return result(state, word ? deleteWordAfter(state) : deleteForward(state));
  if (key.leftArrow) return result(state, word ? wordLeft(state) : left(state));
  if (key.rightArrow) return result(state, word ? wordRight(state) : right(state));
  if (key.home) return result(state, home(state));
  if (key.end) return result(state, end(state));
  if (key.upArrow) return result(state, up(state, options?.width));
  if (key.downArrow) return result(state, down(state, options?.width));
  if (key.ctrl) return result(state, key.meta ? null : ctrlLetter(state, input.toLowerCase()));
  if (key.meta) return result(state, metaLetter(state, input));
  if (input === "") return result(state, null);
  if (CTRL_RUN.test(input)) {
    let next = state;
    for (const c of input) {
      next = ctrlLetter(next, String.fromCharCode(c.charCodeAt(0) + 96)) ?? next;
    }
    return result(state, next);
  }
  const next = insert(state, input);
  return result(state, next === state ? null : next);
}
