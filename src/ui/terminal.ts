// Sequences that talk to the terminal itself rather than draw on it: clipboard (OSC 52)
// and attention (bell, OSC 9 / OSC 777 notifications). They reach the person's own
// machine across SSH; inside tmux they are wrapped in its passthrough (DCS tmux; …).
import { reportError, reportInfo } from "./status.ts";
import { sanitize } from "./text.ts";

type Writer = (data: string) => void;
let write: Writer | null = null;
let insideTmux = false;

/** run.tsx points this at the real terminal; tests point it at a buffer. */
export function setTerminalWriter(
  writer: Writer | null,
  env: NodeJS.ProcessEnv = process.env,
): void {
  write = writer;
  insideTmux = Boolean(env.TMUX);
}

function passthrough(sequence: string): string {
  return insideTmux ? `\x1bPtmux;${sequence.replaceAll("\x1b", "\x1b\x1b")}\x1b\\` : sequence;
}

export function copyToClipboard(text: string): void {
  if (!text) {
    reportError("Nothing to copy", new Error("this message has no text or link"));
    return;
  }
  if (!write) return;
  const data = Buffer.from(text, "utf8").toString("base64");
  write(passthrough(`\x1b]52;c;${data}\x07`));
  reportInfo(
    `Copied ${text.length > 40 ? "the message" : `"${sanitize(text).replace(/\s+/g, " ")}"`} to the clipboard.`,
  );
}

/** Strips everything that could end the sequence early or start another. */
export function notificationText(text: string, max = 200): string {
  return sanitize(text)
    .replace(/[\u0000-\u001f\u007f-\u009f;]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max);
}

export function notify(
  title: string,
  body: string,
  options: { bell: boolean; desktop: boolean },
): void {
  if (!write) return;
  if (options.bell) write("\x07");
  if (options.desktop) {
    const t = notificationText(title, 60);
    const b = notificationText(body);
    write(passthrough(`\x1b]777;notify;${t};${b}\x07`));
    write(passthrough(`\x1b]9;${t}: ${b}\x07`));
  }
}
