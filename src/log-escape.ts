// Text that came from a request or a remote peer, made safe for a log line an operator
// reads in a terminal: C0 and C1 control characters and DEL become \xNN (so no escape
// sequence retitles, clears or writes the clipboard of whoever watches the log, and a
// newline cannot forge a line), and a backslash becomes \\ so the escapes stay unambiguous.
// Shared by `parley serve` and `parley ssh`; the client's screen has its own, richer
// sanitising (src/ui/text/sanitize.ts).
export function escapeForLog(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\\]/g, (c) =>
    c === "\\" ? "\\\\" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

// Also bidi controls and line / paragraph separators (they reorder or break what a reader
// sees), lone surrogates, and " (a quoted value must not end early).
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"\\]|\p{Cs}/gu;
const CONTROLS =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu;

function escapeOne(c: string): string {
  if (c === '"' || c === "\\") return `\\${c}`;
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * A value for a log line: escaped as `escapeForLog` does, and also bidi controls (`\u202e`)
 * and `"`, and cut to `max` characters (with `…`): one printable line.
 */
export function logEscape(value: string, max = 200): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return cut.replace(UNSAFE, escapeOne);
}

/** `value` escaped and in double quotes: where it starts and ends is never in doubt. */
export function logQuote(value: string, max = 200): string {
  return `"${logEscape(value, max)}"`;
}

/**
 * A whole log line made one printable line: control characters escaped, quotes and
 * backslashes left alone (the values in it are quoted already). The last guard before a
 * line is written, for values nobody thought of (an error's message).
 */
export function logLine(line: string): string {
  return line.replace(CONTROLS, escapeOne);
}
