// The terminal's own cursor, shown at a cell of the screen while this is mounted (Ink's
// useCursor): where the composer or a prompt types, so that nothing is drawn for it, an
// IME shows its candidates there and a screen reader follows. Mount one at a time: the
// focused input's. The cell is counted from the screen's top-left, which the caller works
// out from the layout (screen/layout.ts) during render, as Ink needs it then.
import { useCursor } from "ink";

export type ScreenCell = { x: number; y: number };

export function TerminalCursor({ x, y }: ScreenCell) {
  const { setCursorPosition } = useCursor();
  setCursorPosition({ x, y });
  return null;
}
