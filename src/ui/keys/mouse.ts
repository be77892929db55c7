// The mouse as a terminal reports it in SGR mode (1006): `ESC [ < b ; x ; y M` for a press
// (or wheel notch, or a drag with a button held), `m` for a release; x and y count from 1.
// Reporting is switched on and off around the client by src/client/mount.tsx.

export const MOUSE_ON = "\x1b[?1000h\x1b[?1002h\x1b[?1006h";
export const MOUSE_OFF = "\x1b[?1006l\x1b[?1002l\x1b[?1000l";

export type MouseEvent = {
  kind: "press" | "release" | "drag" | "wheelUp" | "wheelDown";
  /** 0 left, 1 middle, 2 right (for presses and drags). */
  button: number;
  /** Screen column and row, counted from 0. */
  x: number;
  y: number;
};

const SGR = /^\x1b?\[<(\d+);(\d+);(\d+)([Mm])$/;
const SGR_ALL = /\x1b\[<\d+;\d+;\d+[Mm]/g;

/**
 * Takes the mouse reports out of a read from the terminal: what is left is keys for Ink
 * (which would drop the reports anyway). A report cut off at the end of the read comes
 * back as `partial`, to be put in front of the next read.
 */
export function splitMouse(text: string): { rest: string; reports: MouseEvent[]; partial: string } {
  const reports: MouseEvent[] = [];
  let rest = text.replace(SGR_ALL, (report) => {
    const event = parseMouse(report);
    if (event) reports.push(event);
    return "";
  });
  const cut = /\x1b\[<[\d;]*$/.exec(rest);
  const partial = cut ? cut[0] : "";
  if (cut) rest = rest.slice(0, cut.index);
  return { rest, reports, partial };
}

/** Who hears the mouse: the key dispatcher (dispatcher.tsx) subscribes. */
export type MouseSource = { subscribe(listener: (event: MouseEvent) => void): () => void };

/** The mouse event in `input`, or undefined when it is not one. */
export function parseMouse(input: string): MouseEvent | undefined {
  const m = SGR.exec(input);
  if (!m) return undefined;
  const code = Number(m[1]);
  const x = Number(m[2]) - 1;
  const y = Number(m[3]) - 1;
  const button = code & 3;
  if (code & 64) return { kind: button === 0 ? "wheelUp" : "wheelDown", button, x, y };
  if (m[4] === "m") return { kind: "release", button, x, y };
  return { kind: code & 32 ? "drag" : "press", button, x, y };
}
