// Ink 8.0.0's incremental log-update (build/log-update.js), diffing cells instead of lines.
// Ink's version rewrote every changed line whole and walked down the frame line by line
// (ESC[E for each unchanged one), then hid, moved and showed the cursor: one character
// typed in the composer cost about 290 bytes, a hundred times what a C client writes.
// This one keeps where the terminal's cursor is, writes only the cells that changed (the
// shortest cursor move to each run of them, the styles they need), and leaves the cursor
// where the next frame most likely writes: one key costs the character, and a cursor move
// where the character does not land where the cursor is.
//
// Small updates (one changed row) return false from willRender, which Ink reads only to
// decide whether to wrap the write in synchronized-output marks (16 bytes): one row cannot
// tear. Larger ones are synchronized and hide the cursor while they draw, as Ink's do.
//
// Ink's standard (non-incremental) mode is Ink's own. scripts/ink-plugin.ts puts this file
// in place of Ink's for the bundle and the tests; test/ui/ink-log-update.test.ts replays
// random frame sequences through it into a terminal emulator and compares the screens.
import {
  type AnsiCode,
  ansiCodesToString,
  diffAnsiCodes,
  type StyledChar,
} from "@alcalzone/ansi-tokenize";
import cliCursor from "cli-cursor";
import originalLogUpdate from "ink-original/log-update.js";
import { frameWritten, takeShownFrame } from "./frames.ts";
import { tokenizeLine, widthOf } from "./output.ts";

type Position = { x: number; y: number };

const ESC = "\x1b[";
const SHOW = `${ESC}?25h`;
const HIDE = `${ESC}?25l`;
const ERASE_LINE_END = `${ESC}K`;
const ERASE_DOWN = `${ESC}J`;
// eslint-disable-next-line no-control-regex -- the controls a cell must not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Changed runs this close together are written as one: a move costs about as much. */
const MERGE_GAP = 3;
/** Blanks in a run are erased (ECH, which leaves the cursor) from this many on. */
const MIN_ERASED = 6;

type Cell = { value: string; width: number; styles: readonly AnsiCode[]; style: string };
const BLANK: Cell = { value: " ", width: 1, styles: [], style: "" };
const PLACEHOLDER_WIDTH = 0;

/**
 * A rendered line (Ink's Output: SGR and OSC 8 codes and characters) as terminal cells.
 * Not through output.ts's cache of tokenised lines: a whole row is seldom drawn twice
 * (while a pane scrolls, never), and each would push out a line the next frame needs.
 */
function cellsOf(line: string): Cell[] | undefined {
  const cells: Cell[] = [];
  let previous: StyledChar | undefined;
  let style = "";
  for (const character of tokenizeLine(line)) {
    if (CONTROL.test(character.value)) return undefined;
    if (previous?.styles !== character.styles) {
      style = character.styles.map((code) => code.code).join("");
      previous = character;
    }
    // As Ink's Output counts it: every character takes at least one cell.
    const width = Math.max(1, widthOf(character.value));
    cells.push({ value: character.value, width, styles: character.styles, style });
    for (let i = 1; i < width; i++) {
      cells.push({ value: "", width: PLACEHOLDER_WIDTH, styles: character.styles, style });
    }
  }
  return cells;
}

const sameCell = (a: Cell, b: Cell) => a.value === b.value && a.style === b.style;

const isPlainAscii = (value: string) => value.length === 1 && value >= " " && value <= "~";

type Run = { from: number; to: number };

/** The columns of a row that differ, as runs; cells past `erasedFrom` are left to ESC[K. */
function changedRuns(previous: Cell[], next: Cell[], erasedFrom: number): Run[] {
  const runs: Run[] = [];
  const end = Math.min(Math.max(previous.length, next.length), erasedFrom);
  for (let column = 0; column < end; column++) {
    if (sameCell(previous[column] ?? BLANK, next[column] ?? BLANK)) continue;
    // A changed placeholder is redrawn from its wide character.
    let from = column;
    while (from > 0 && next[from]?.width === PLACEHOLDER_WIDTH) from--;
    const last = runs.at(-1);
    if (last && from - last.to <= MERGE_GAP) last.to = column + 1;
    else runs.push({ from, to: column + 1 });
  }
  return runs;
}

function sequence(count: number, final: string): string {
  return count === 1 ? `${ESC}${final}` : `${ESC}${count}${final}`;
}

const createCellIncremental = (stream: NodeJS.WriteStream, { showCursor = false } = {}) => {
  const shown = takeShownFrame(stream);
  let previousLines: string[] = shown?.split("\n") ?? [];
  /**
   * The shown rows as cells, where a frame worked them out: the next change to a row
   * diffs against them instead of tokenising the row's old text again.
   */
  let previousCells: (Cell[] | undefined)[] = [];
  let previousOutput = shown ?? "";
  let previousColumns = stream.columns;
  let hasHiddenCursor = false;
  let cursorPosition: Position | undefined;
  let isCursorDirty = false;
  let previousCursorPosition: Position | undefined;
  /** Whether the terminal shows its cursor (we showed it for a cursor position). */
  let cursorShown = false;
  // Where the terminal's cursor is, in the frame's rows and columns. The column is
  // undefined when it is not known for sure (after a whole line, a wide or unusual
  // character, or the last column, where the terminal holds a pending wrap).
  let row = 0;
  let column: number | undefined = 0;
  let buffer = "";
  /** The styles the terminal writes with now (none between renders), and their codes. */
  let styles: readonly AnsiCode[] = [];
  let style = "";

  const getActiveCursor = () => (isCursorDirty ? cursorPosition : undefined);
  const cursorChanged = (a: Position | undefined, b: Position | undefined) =>
    a?.x !== b?.x || a?.y !== b?.y;
  const hasChanges = (text: string, activeCursor: Position | undefined) =>
    text !== previousOutput || cursorChanged(activeCursor, previousCursorPosition);

  const setStyles = (next: Pick<Cell, "styles" | "style">) => {
    if (next.style === style) return;
    buffer += ansiCodesToString(diffAnsiCodes(styles as AnsiCode[], next.styles as AnsiCode[]));
    styles = next.styles;
    style = next.style;
  };

  /** The shortest relative move to a row and column of the frame. */
  const moveTo = (toRow: number, toColumn: number) => {
    if (toRow < row) buffer += sequence(row - toRow, "A");
    else if (toRow > row) buffer += sequence(toRow - row, "B");
    row = toRow;
    if (column === toColumn) return;
    const options = [toColumn === 0 ? "\r" : sequence(toColumn + 1, "G")];
    if (column !== undefined) {
      if (toColumn > column) options.push(sequence(toColumn - column, "C"));
      else if (column - toColumn === 1) options.push("\b");
      else options.push(sequence(column - toColumn, "D"));
    }
    buffer += options.reduce((a, b) => (b.length < a.length ? b : a));
    column = toColumn;
  };

  const writeCells = (cells: Cell[], run: Run, columns: number) => {
    for (let at = run.from; at < run.to; at++) {
      const cell = cells[at] ?? BLANK;
      if (cell.width === PLACEHOLDER_WIDTH) continue;
      // A stretch of blanks (text deleted before a border, say) is erased, not written.
      let blanks = 0;
      while (at + blanks < run.to && sameCell(cells[at + blanks] ?? BLANK, BLANK)) blanks++;
      if (blanks >= MIN_ERASED) {
        setStyles(BLANK);
        buffer += sequence(blanks, "X");
        if (at + blanks < run.to) moveTo(row, at + blanks);
        at += blanks - 1;
        continue;
      }
      setStyles(cell);
      buffer += cell.value;
      if (column !== undefined) {
        column = isPlainAscii(cell.value) ? column + cell.width : undefined;
      }
      if (column !== undefined && column >= columns) column = undefined;
    }
  };

  /** Rewrites one row whole, as Ink does (for text the cell diff does not handle). */
  const writeLine = (line: string) => {
    setStyles(BLANK);
    buffer += `\r${ERASE_LINE_END}${line}`;
    column = undefined;
  };

  /** Writes what changed in row `index`; returns the row's new cells. */
  const updateRow = (index: number, next: string, columns: number): Cell[] | undefined => {
    const previousRow = previousCells[index] ?? cellsOf(previousLines[index]!);
    const nextCells = cellsOf(next);
    if (!previousRow || !nextCells) {
      moveTo(index, 0);
      writeLine(next);
      return nextCells;
    }
    // Ink trims a row's trailing blanks: what the old row had past the new one's end is
    // erased in one sequence, unless a run would have to write there anyway.
    let erasedFrom = nextCells.length;
    while (erasedFrom > 0 && sameCell(nextCells[erasedFrom - 1]!, BLANK)) erasedFrom--;
    const needsErase = previousRow.length > erasedFrom;
    for (const run of changedRuns(previousRow, nextCells, needsErase ? erasedFrom : Infinity)) {
      moveTo(index, run.from);
      writeCells(nextCells, run, columns);
    }
    if (needsErase) {
      moveTo(index, erasedFrom);
      setStyles(BLANK);
      buffer += ERASE_LINE_END;
    }
    return nextCells;
  };

  const placeCursor = (activeCursor: Position | undefined) => {
    setStyles(BLANK);
    if (activeCursor) {
      moveTo(Math.min(activeCursor.y, Math.max(0, previousLines.length - 1)), activeCursor.x);
      if (!cursorShown) buffer += SHOW;
      cursorShown = true;
    } else if (cursorShown) {
      buffer += HIDE;
      cursorShown = false;
    }
    previousCursorPosition = activeCursor ? { ...activeCursor } : undefined;
  };

  const flush = () => {
    if (buffer !== "") stream.write(buffer);
    buffer = "";
  };

  /** A frame's rows (Ink asks willRender, then renders, with the same text). */
  let split = { text: "", lines: [""] };
  const linesOf = (text: string) => {
    if (split.text !== text) split = { text, lines: text.split("\n") };
    return split.lines;
  };

  /** The rows that changed, or undefined when the frame cannot be diffed row by row. */
  const changedRows = (text: string): number[] | undefined => {
    if (previousOutput === "" || text === "\n" || previousColumns !== stream.columns) {
      return undefined;
    }
    const nextLines = linesOf(text);
    if (nextLines.length !== previousLines.length) return undefined;
    const rows: number[] = [];
    for (let i = 0; i < nextLines.length; i++) {
      if (nextLines[i] !== previousLines[i]) rows.push(i);
    }
    return rows;
  };

  /** A whole frame from its top, as Ink writes its first one. */
  const writeWhole = (text: string) => {
    if (previousLines.length > 0) {
      moveTo(0, 0);
      setStyles(BLANK);
      buffer += ERASE_DOWN;
    }
    buffer += text;
    const lines = text.split("\n");
    row = lines.length - 1;
    column = lines.at(-1) === "" ? 0 : undefined;
  };

  const render = (text: string) => {
    if (!showCursor && !hasHiddenCursor) {
      cliCursor.hide(stream);
      hasHiddenCursor = true;
    }
    const activeCursor = getActiveCursor();
    isCursorDirty = false;
    if (!hasChanges(text, activeCursor)) return false;
    const rows = changedRows(text);
    const large = rows === undefined || rows.length > 1;
    if (large && cursorShown) {
      buffer += HIDE;
      cursorShown = false;
    }
    const nextLines = linesOf(text);
    if (rows === undefined) {
      writeWhole(text);
      previousCells = [];
    } else {
      for (const index of rows) {
        previousCells[index] = updateRow(index, nextLines[index]!, stream.columns);
      }
    }
    previousColumns = stream.columns;
    previousOutput = text;
    previousLines = nextLines;
    placeCursor(activeCursor);
    flush();
    frameWritten(stream, text);
    return true;
  };

  /** No frame on screen as far as this knows: the next render writes one whole. */
  function forget() {
    previousOutput = "";
    previousLines = [];
    previousCells = [];
    previousCursorPosition = undefined;
    cursorShown = false;
    row = 0;
    column = 0;
  }

  /** Erases the frame from its top row down, wherever the cursor is in it. */
  render.clear = () => {
    if (previousLines.length > 0) {
      if (cursorShown) buffer += HIDE;
      moveTo(0, 0);
      setStyles(BLANK);
      buffer += ERASE_DOWN;
      flush();
    }
    forget();
  };

  render.done = () => {
    // Leave the terminal at the output's bottom row.
    if (previousLines.length > 0) {
      moveTo(previousLines.length - 1, 0);
      flush();
    }
    forget();
    if (showCursor) return;
    cliCursor.show(stream);
    hasHiddenCursor = false;
  };

  /** Forgets the frame: the next render writes one whole from where the cursor is. */
  render.reset = forget;

  /** Ink wrote `text` itself, from the frame's top: the cursor is at its end. */
  render.sync = (text: string) => {
    const activeCursor = isCursorDirty ? cursorPosition : undefined;
    isCursorDirty = false;
    previousColumns = stream.columns;
    previousOutput = text;
    previousLines = linesOf(text);
    previousCells = [];
    row = previousLines.length - 1;
    column = previousLines.at(-1) === "" ? 0 : undefined;
    styles = [];
    style = "";
    // Ink writes the frame with the cursor hidden or not at all: show it again if asked.
    if (!activeCursor && cursorShown) {
      buffer += HIDE;
      cursorShown = false;
    }
    if (activeCursor) cursorShown = false;
    placeCursor(activeCursor);
    flush();
    frameWritten(stream, text);
  };

  render.setCursorPosition = (position: Position | undefined) => {
    cursorPosition = position;
    isCursorDirty = true;
  };
  render.isCursorDirty = () => isCursorDirty;
  // Read by Ink only to decide whether to synchronize the write: one row is not worth it.
  render.willRender = (text: string) => {
    if (!hasChanges(text, getActiveCursor())) return false;
    const rows = changedRows(text);
    return rows === undefined || rows.length > 1;
  };
  render.getCursorPosition = () => previousCursorPosition;
  return render;
};

type Options = { showCursor?: boolean; incremental?: boolean };

const create = (stream: NodeJS.WriteStream, options: Options = {}) =>
  options.incremental
    ? createCellIncremental(stream, options)
    : originalLogUpdate.create(stream, options);

const logUpdate = { create };
export default logUpdate;
