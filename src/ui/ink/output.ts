// Ink 8.0.0's Output (build/output.js), the class that turns each frame's write operations
// into the frame's text, with its caches kept across frames instead of built anew for each
// one. Ink creates an Output per frame, so every frame tokenised every line's ANSI codes
// and measured every character again: about 15 ms a keystroke at 120x40, and `parley ssh`
// renders every session's frames on one thread. A keystroke usually changes one line, and
// with these caches the unchanged lines cost a lookup.
//
// What it draws is the same as Ink's: test/ui/ink-output.test.ts renders the client's
// frames through both and compares them. scripts/ink-plugin.ts puts this file in place of
// Ink's, in the bundle and in the tests, and refuses any Ink version but the one ported.
import {
  type StyledChar,
  styledCharsFromTokens,
  styledCharsToString,
  tokenize,
} from "@alcalzone/ansi-tokenize";
import QuickLRU from "quick-lru";
import stringWidth from "string-width";
import { remembered, textCaches } from "./remembered.ts";

type Transformer = (line: string, index: number) => string;

type Clip = {
  x1: number | undefined;
  x2: number | undefined;
  y1: number | undefined;
  y2: number | undefined;
};

type Operation =
  | { type: "write"; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: "clip"; clip: Clip }
  | { type: "unclip" };

const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}+$/u;
/** Per generation of the tokenised lines' cache: a 120x40 frame writes some 100 texts. */
const STYLED_LINES_KEPT = 256;

// Shared by every Output, so by every frame of every session in this process. Cached
// values are never modified: a frame replaces cells, it does not edit them.
// Tokenised lines are big (an object and a styles array per character, some 18 KB for a
// row of 120): kept for the few hundred lines a frame or two writes, not for thousands
// (4,096 of them held 70 MB after scrolling through a long history). Unchanged rows are
// found whole in rowTexts below, without tokenising.
/** A line's characters with their styles, computed each time (see styledCharsOf). */
export const tokenizeLine = (line: string): readonly StyledChar[] =>
  // Standalone invisible Unicode characters must not occupy terminal cells.
  styledCharsFromTokens(tokenize(line)).filter((c) => !DEFAULT_IGNORABLE.test(c.value));
export const styledCharsOf = remembered(tokenizeLine, STYLED_LINES_KEPT);
export const widthOf = remembered((text: string) => stringWidth(text), 4096);
const widestLineOf = remembered((text: string) => {
  let width = 0;
  for (const line of text.split("\n")) width = Math.max(width, widthOf(line));
  return width;
});
/** A written text's rows, each row's styles complete in itself (styles carry across "\n"). */
const rowsOf = remembered((text: string): readonly string[] => {
  const rows: StyledChar[][] = [[]];
  for (const character of styledCharsOf(text)) {
    if (character.value === "\n") rows.push([]);
    else rows.at(-1)!.push(character);
  }
  return rows.map((row) => styledCharsToString(row));
});

const BLANK: StyledChar = Object.freeze({
  type: "char",
  value: " ",
  fullWidth: false,
  styles: [],
}) as StyledChar;

/** Replaces a partially visible wide character with a space that keeps its styles. */
const blankCell = (cell: StyledChar): StyledChar => ({ ...cell, value: " ", fullWidth: false });

/** An undefined bound is unbounded on that edge; where both are set, the tighter one wins. */
const intersectBound = (
  a: number | undefined,
  b: number | undefined,
  tighter: (a: number, b: number) => number,
) => (a === undefined ? b : b === undefined ? a : tighter(a, b));

/** Bounds are half-open (x2, y2 exclusive): an axis is empty once its lower bound reaches its upper. */
const isClipEmpty = (clip: Clip) =>
  (clip.x1 !== undefined && clip.x2 !== undefined && clip.x1 >= clip.x2) ||
  (clip.y1 !== undefined && clip.y2 !== undefined && clip.y1 >= clip.y2);

/** Nested clips intersect, so an inner box cannot draw outside an outer one. */
const intersectClips = (outer: Clip | undefined, inner: Clip): Clip =>
  outer
    ? {
        x1: intersectBound(outer.x1, inner.x1, Math.max),
        x2: intersectBound(outer.x2, inner.x2, Math.min),
        y1: intersectBound(outer.y1, inner.y1, Math.max),
        y2: intersectBound(outer.y2, inner.y2, Math.min),
      }
    : inner;

/**
 * Clipping works in terminal columns: a wide character cut by the clip's edge becomes a
 * space that keeps its styles, so the line keeps its cell count and its background.
 */
const sliceToColumns = remembered((key: string) => {
  const [from, to, line] = splitSliceKey(key);
  if (from >= to) return "";
  const result: StyledChar[] = [];
  let column = 0;
  for (const character of styledCharsOf(line)) {
    const width = widthOf(character.value);
    const start = column;
    column += width;
    if (column <= from) continue;
    if (start >= to) break;
    result.push(width > 1 && (start < from || column > to) ? blankCell(character) : character);
  }
  return styledCharsToString(result);
});

function splitSliceKey(key: string): [number, number, string] {
  const first = key.indexOf(",");
  const second = key.indexOf(",", first + 1);
  return [Number(key.slice(0, first)), Number(key.slice(first + 1, second)), key.slice(second + 1)];
}

export default class Output {
  width: number;
  height: number;
  private readonly operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (text === "") return;
    this.operations.push({ type: "write", x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: "clip", clip });
  }

  unclip(): void {
    this.operations.push({ type: "unclip" });
  }

  sliceLineToColumns(line: string, from: number, to: number): string {
    return sliceToColumns(`${from},${to},${line}`);
  }

  get(): { output: string; height: number } {
    // Each row's writes, in order: where each line starts and the line itself.
    const rows: RowWrites[] = [];
    for (let y = 0; y < this.height; y++) rows.push([]);
    const clips: Clip[] = [];
    for (const operation of this.operations) {
      if (operation.type === "clip") clips.push(intersectClips(clips.at(-1), operation.clip));
      else if (operation.type === "unclip") clips.pop();
      else this.addWrite(rows, operation, clips.at(-1));
    }
    // A row is a pure function of the output's width and its writes, and most rows are
    // the same as in the last frame: those are looked up, not drawn cell by cell again.
    const text = rows.map((writes) => rowText(this.width, writes)).join("\n");
    return { output: text, height: rows.length };
  }

  /** Clips and transforms one write, and adds its lines to the rows they land on. */
  private addWrite(
    rows: RowWrites[],
    operation: Extract<Operation, { type: "write" }>,
    clip: Clip | undefined,
  ): void {
    const { text, transformers } = operation;
    let { x, y } = operation;
    let lines = rowsOf(text);
    if (clip) {
      // Two nested clips can intersect to nothing.
      if (isClipEmpty(clip)) return;
      const clipsX = typeof clip.x1 === "number" && typeof clip.x2 === "number";
      const clipsY = typeof clip.y1 === "number" && typeof clip.y2 === "number";
      // Entirely outside the clip: nothing to do.
      if (clipsX && (x + widestLineOf(text) < clip.x1! || x > clip.x2!)) return;
      if (clipsY && (y + lines.length < clip.y1! || y > clip.y2!)) return;
      if (clipsX) {
        const x1 = clip.x1!;
        const x2 = clip.x2!;
        lines = lines.map((line) => {
          const from = x < x1 ? x1 - x : 0;
          const width = widthOf(line);
          const to = x + width > x2 ? x2 - x : width;
          return this.sliceLineToColumns(line, from, to);
        });
        if (x < x1) x = x1;
      }
      if (clipsY) {
        const from = y < clip.y1! ? clip.y1! - y : 0;
        const to = y + lines.length > clip.y2! ? clip.y2! - y : lines.length;
        lines = lines.slice(from, to);
        if (y < clip.y1!) y = clip.y1!;
      }
    }
    for (let index = 0; index < lines.length; index++) {
      const row = rows[y + index];
      // Rows above or below the output area do not exist.
      if (!row) continue;
      let line = lines[index]!;
      for (const transformer of transformers) line = transformer(line, index + y - operation.y);
      row.push(x, line);
    }
  }
}

/** A row's writes as flat pairs: column, line, column, line… */
type RowWrites = (number | string)[];

const rowTexts = new QuickLRU<string, string>({ maxSize: 2048 });
textCaches.add(rowTexts);

function rowText(width: number, writes: RowWrites): string {
  if (writes.length === 0) return "";
  // Each line is prefixed by its length, so no two lists of writes share a key.
  let key = `${width}`;
  for (let i = 0; i < writes.length; i += 2) {
    const line = writes[i + 1] as string;
    key += `|${writes[i]}|${line.length}|${line}`;
  }
  let text = rowTexts.get(key);
  if (text === undefined) {
    text = drawRow(width, writes);
    rowTexts.set(key, text);
  }
  return text;
}

/** Ink's cell-by-cell drawing of one row, wide characters and all. */
function drawRow(width: number, writes: RowWrites): string {
  const row: StyledChar[] = new Array(width).fill(BLANK);
  for (let i = 0; i < writes.length; i += 2) {
    const characters = styledCharsOf(writes[i + 1] as string);
    if (characters.length === 0) continue;
    let offsetX = writes[i] as number;
    // A wide character fills two cells: its own and a placeholder with value "". A write
    // that starts on a placeholder cuts that character in half: blank its first cell.
    if (row[offsetX]?.value === "" && offsetX > 0 && widthOf(row[offsetX - 1]?.value ?? "") > 1) {
      row[offsetX - 1] = blankCell(row[offsetX - 1]!);
    }
    for (const character of characters) {
      row[offsetX] = character;
      const characterWidth = Math.max(1, widthOf(character.value));
      // A wide character's following cells become placeholders, so nothing is drawn there.
      for (let offset = 1; offset < characterWidth; offset++) {
        row[offsetX + offset] = {
          type: "char",
          // A leading cell outside the output leaves a visible cell, not a placeholder.
          value: offsetX < 0 ? " " : "",
          fullWidth: false,
          styles: character.styles,
        };
      }
      offsetX += characterWidth;
    }
    // The write ended on the first half of a wide character already there: blank its rest.
    if (row[offsetX]?.value === "") row[offsetX] = blankCell(row[offsetX]!);
  }
  // https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
  return styledCharsToString(row.filter((cell) => cell !== undefined)).trimEnd();
}
