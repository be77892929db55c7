// A terminal in memory (@xterm/headless) as a pty in raw mode feeds it: what a stream of
// output shows on screen. For the component harness (test/ui/harness.tsx), the writer's
// tests, and tests that read a real client's bytes (ssh2 sessions): parley writes only the
// cells that change, so what a screen shows is not a run of the bytes.
import unicode11 from "@xterm/addon-unicode11";
import xterm from "@xterm/headless";

/** A headless xterm of that size: Unicode 11 widths (emoji two columns, as real terminals). */
export function headlessTerminal(columns: number, rows: number): xterm.Terminal {
  // convertEol: a real pty turns "\n" into "\r\n" (onlcr); Ink relies on that.
  const term = new xterm.Terminal({
    cols: columns,
    rows,
    allowProposedApi: true,
    scrollback: 0,
    convertEol: true,
  });
  term.loadAddon(new unicode11.Unicode11Addon());
  term.unicode.activeVersion = "11";
  return term;
}

/** The screen's rows as text, top to bottom. */
export function screenText(term: xterm.Terminal): string {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
  }
  return lines.join("\n");
}

export type VirtualTerminal = {
  /** Feeds output; `then` runs once the terminal has drawn it. */
  write(data: string | Uint8Array, then?: () => void): void;
  /** The screen's rows as text, top to bottom. */
  screen(): string;
};

export function virtualTerminal(columns: number, rows: number): VirtualTerminal {
  const term = headlessTerminal(columns, rows);
  return { write: (data, then) => term.write(data, then), screen: () => screenText(term) };
}
