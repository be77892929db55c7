// Text that came from a request or a remote peer, made safe for a log line an operator
// reads in a terminal: C0 and C1 control characters and DEL become \xNN (so no escape
// sequence retitles, clears or writes the clipboard of whoever watches the log, and a
// newline cannot forge a line), and a backslash becomes \\ so the escapes stay unambiguous.
export function escapeForLog(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\\]/g, (c) =>
    c === "\\" ? "\\\\" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}
