// The one-line prompts (the sidebar's search, the new conversation's id) edit with the
// composer's model (editor.ts): by grapheme, with the same keys (Ctrl+A/E, Ctrl+U/K,
// Ctrl+W, Alt+←/→, Backspace and Delete), on one line. This is why the prompts are not
// ink-text-input: it edits by UTF-16 unit, types Ctrl+A as "a", and reads its value from
// the last render, so keys that arrive in one read (three Backspaces) undo each other.
import type { Key } from "ink";
import { graphemes } from "../text/graphemes.ts";
import { displayWidth, terminalForm } from "../text/width.ts";
import { applyKey, type EditorState, fromText, insert, type KeyResult } from "./editor.ts";

/** Text for a one-line prompt: line breaks become spaces. */
export function oneLine(text: string): string {
  return text.replace(/\r\n?|\n/g, " ");
}

/** A prompt's state holding `value`, cursor at the end. */
export function lineState(value: string): EditorState {
  return fromText(oneLine(value));
}

/**
 * Whether this input is typed text ending in Enter, arrived in one read: the prompt lets
 * the dispatcher split it into its keys, so that the text is typed and Enter acts.
 */
export function isTextThenEnter(input: string, key: Key): boolean {
  return !key.return && input.length > 1 && input.endsWith("\r");
}

/**
 * One key applied to a one-line prompt. Not handled (for the prompt to decide): Enter,
 * Esc, Tab, ↑ and ↓, PgUp/PgDn, Ctrl+J, other Ctrl and Alt keys.
 */
export function applyLineKey(state: EditorState, input: string, key: Key): KeyResult {
  if (key.upArrow || key.downArrow || input === "\n") return { state, handled: false };
  return applyKey(state, /[\r\n]/.test(input) && !key.return ? oneLine(input) : input, key);
}

/** A paste into a one-line prompt. */
export function pasteLine(state: EditorState, text: string): EditorState {
  return insert(state, oneLine(text));
}

export type LineView = { before: string; under: string; after: string };

/**
 * What of the prompt shows in `width` columns, split at the cursor (`under` is the grapheme
 * under it, or "" at the end): all of it when it fits, else a window that keeps the cursor
 * on screen, scrolled as little as possible. Each part is in its terminal form.
 */
export function lineView(state: EditorState, width: number): LineView {
  const room = Math.max(1, Math.floor(width));
  const parts = Array.from(graphemes.segment(state.value), ({ segment, index }) => ({
    segment,
    index,
    width: displayWidth(segment),
  }));
  const at = parts.findIndex((p) => p.index >= state.cursor);
  const cursor = at === -1 ? parts.length : at;
  const cell = (i: number) => parts[i]?.width || 1;
  // Back from the cursor as far as fits.
  let first = cursor;
  let used = cell(cursor);
  while (first > 0 && used + parts[first - 1]!.width <= room) {
    first--;
    used += parts[first]!.width;
  }
  // Then forward after it as far as fits.
  let last = cursor + 1;
  while (last < parts.length && used + parts[last]!.width <= room) {
    used += parts[last]!.width;
    last++;
  }
  const join = (from: number, to: number) =>
    terminalForm(
      parts
        .slice(from, to)
        .map((p) => p.segment)
        .join(""),
    );
  return {
    before: join(first, cursor),
    under: join(cursor, cursor + 1),
    after: join(cursor + 1, last),
  };
}
