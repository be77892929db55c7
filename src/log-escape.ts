// Values that came from the network (a user name, TERM, a path, an address), made safe to
// put in a log line: someone reading the log in a terminal (`tail -f`, journalctl) must
// not have it retitled, cleared or their clipboard written by what an attacker sent, and
// a line must stay one line that a filter (fail2ban) can trust. Shared by the servers;
// the client's screen has its own, richer sanitising (src/ui/text/sanitize.ts).

// C0, DEL, C1; bidi controls and line / paragraph separators (they reorder or break what a
// reader sees); lone surrogates; and the two characters that quote: " and \.
const UNSAFE =
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"\\]|\p{Cs}/gu;

function escapeOne(c: string): string {
  if (c === '"' || c === "\\") return `\\${c}`;
  const code = c.charCodeAt(0);
  if (code === 0x0a) return "\\n";
  if (code === 0x0d) return "\\r";
  if (code === 0x09) return "\\t";
  if (code === 0x1b) return "\\e";
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `value` with every control character shown escaped (`\e`, `\x07`, `\x9b`, `\u202e`…),
 * `"` and `\` escaped too, and cut to `max` characters (with `…`): one printable line.
 */
export function logEscape(value: string, max = 200): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return cut.replace(UNSAFE, escapeOne);
}

/** `value` escaped and in double quotes: where it starts and ends is never in doubt. */
export function logQuote(value: string, max = 200): string {
  return `"${logEscape(value, max)}"`;
}

const CONTROLS =
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu;

/**
 * A whole log line made one printable line: control characters escaped as `logEscape`
 * does, quotes and backslashes left alone (the values in it are quoted already). The last
 * guard before a line is written, for values nobody thought of (an error's message).
 */
export function logLine(line: string): string {
  return line.replace(CONTROLS, escapeOne);
}
