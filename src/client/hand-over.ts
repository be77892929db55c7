// Handing the terminal to someone else for a while (the shell on Ctrl+Z, an editor on
// Ctrl+G) and taking it back: Ink leaves the alternate screen, turns raw mode and the
// kitty keyboard protocol off and stops reading input; afterwards it takes all of that
// back, and the whole screen is drawn again (what ran there wrote over it).
import type { TerminalSuspension } from "ink";

export type HandOverTerminal = {
  /** Ink's hand-over of the terminal. */
  suspendTerminal(): Promise<TerminalSuspension>;
  /** A full redraw, as Ctrl+L does it. */
  redraw(): void;
};

/** Gives the terminal away for as long as `away` runs, then takes it back and redraws. */
export async function handOverTerminal<T>(
  terminal: HandOverTerminal,
  away: () => Promise<T>,
): Promise<T> {
  const suspension = await terminal.suspendTerminal();
  let result: T;
  try {
    result = await away();
  } finally {
    await suspension.resume();
  }
  terminal.redraw();
  return result;
}
