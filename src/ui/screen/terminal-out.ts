// Sequences that talk to the terminal itself rather than draw on it: clipboard (OSC 52)
// and attention (bell, OSC 9 / OSC 777 notifications). They reach the person's own
// machine across SSH. Inside tmux, notifications are wrapped in its passthrough (DCS
// tmux; …, which needs `allow-passthrough on`); the clipboard is not: tmux reads a plain
// OSC 52 itself and, with `set-clipboard on`, keeps it as a paste buffer and passes it on
// to the terminal outside, where a passed-through one would bypass tmux entirely.

import { linkTarget } from "../text/links.ts";
import { sanitize } from "../text/sanitize.ts";
import type { StatusLine } from "./status-line.ts";

/** Where sequences for the terminal go: the real terminal, an SSH channel, or a test buffer. */
export type TerminalOut = { write(data: string): void; insideTmux: boolean };

export function terminalOut(
  stream: { write(data: string): unknown },
  env: NodeJS.ProcessEnv,
): TerminalOut {
  return { write: (data) => void stream.write(data), insideTmux: Boolean(env.TMUX) };
}

function passthrough(out: TerminalOut, sequence: string): string {
  return out.insideTmux ? `\x1bPtmux;${sequence.replaceAll("\x1b", "\x1b\x1b")}\x1b\\` : sequence;
}

/** The OSC 52 that puts `text` on the clipboard: plain, also inside tmux (see above). */
export function clipboardSequence(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

/**
 * What of `text` may go on the clipboard: no escape sequence and no control character but
 * newline and tab. A message is pasted into shells: a hidden `ESC [201~` would end the
 * shell's bracketed paste and run the lines after it as typed (pastejacking).
 */
export function clipboardText(text: string): string {
  return text
    .split("\t")
    .map((part) => sanitize(part, { keepNewlines: true, strip: true }))
    .join("\t");
}

/** An attachment's address as it may be copied: an http(s) URL, else nothing (""). */
export function clipboardUrl(raw: string | null | undefined): string {
  const url = linkTarget(raw);
  return url !== undefined && /^https?:/.test(url) ? url : "";
}

/**
 * Puts `text`, made safe (`clipboardText`), on the clipboard and says so: `said` is what
 * the status bar says was copied (by default the text itself, or "the message" when long).
 */
export function copyToClipboard(
  out: TerminalOut | undefined,
  status: StatusLine,
  raw: string,
  said?: string,
): void {
  const text = clipboardText(raw);
  if (!text) {
    status.error("Nothing to copy", new Error("this message has no text or link"));
    return;
  }
  if (!out) return;
  out.write(clipboardSequence(text));
  status.info(
    said ??
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

/** A bell and a desktop notification (OSC 777 and OSC 9), each only if switched on. */
export function notify(
  out: TerminalOut | undefined,
  title: string,
  body: string,
  options: { bell: boolean; desktop: boolean },
): void {
  if (!out) return;
  if (options.bell) out.write("\x07");
  if (options.desktop) {
    const t = notificationText(title, 60);
    const b = notificationText(body);
    out.write(passthrough(out, `\x1b]777;notify;${t};${b}\x07`));
    out.write(passthrough(out, `\x1b]9;${t}: ${b}\x07`));
  }
}
