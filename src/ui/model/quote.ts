// Replies by quoting, with no change to the API: a reply's text starts with one line
// `> bob: first words of the message…`, then the reply. Any client shows that as it is,
// and reads well as plain text; parley's pane shows the leading quote apart, above the
// reply. A quote of a reply quotes the reply, not its quote (they do not nest).

/** How much of the quoted message goes into the quote, in characters. */
const QUOTE_CHARS = 72;
const QUOTE_LINE = /^> ?(.*)$/;

/** The quote line that starts a reply to `text`, sent by `sender`. */
export function quoteOf(sender: string, text: string): string {
  const lines = splitQuote(text)
    .reply.split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const first = lines[0] ?? "";
  const chars = Array.from(first);
  const cut = chars.length > QUOTE_CHARS;
  const shown = cut
    ? chars
        .slice(0, QUOTE_CHARS - 1)
        .join("")
        .trimEnd()
    : first;
  return `> ${sender}: ${shown}${cut || lines.length > 1 ? "…" : ""}`;
}

/**
 * A message's leading quote (its `> ` lines, without the marks) and the rest. Only a quote
 * followed by more text is one: a message of `>` lines alone is just text.
 */
export function splitQuote(text: string): { quote: string[]; reply: string } {
  const lines = text.split("\n");
  let n = 0;
  while (n < lines.length && QUOTE_LINE.test(lines[n]!)) n++;
  const rest = lines
    .slice(n)
    .join("\n")
    .replace(/^\s*\n/, "");
  if (n === 0 || rest.trim() === "") return { quote: [], reply: text };
  return { quote: lines.slice(0, n).map((line) => QUOTE_LINE.exec(line)![1]!), reply: rest };
}
