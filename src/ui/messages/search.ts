// Search in the open conversation's text (pure): which loaded item matches, and the
// matched text marked in an item's lines.
import type { Item, Line } from "./message-lines.ts";

function textOf(item: Item): string {
  return item.kind === "message" ? item.message.message : item.entry.text;
}

export function matches(item: Item, query: string): boolean {
  return query !== "" && textOf(item).toLocaleLowerCase().includes(query.toLocaleLowerCase());
}

/** The newest match older than `before` (an index), or -1. */
export function olderMatch(items: readonly Item[], query: string, before: number): number {
  for (let i = Math.min(before, items.length) - 1; i >= 0; i--) {
    if (matches(items[i]!, query)) return i;
  }
  return -1;
}

/** The oldest match newer than `after` (an index), or -1. */
export function newerMatch(items: readonly Item[], query: string, after: number): number {
  for (let i = after + 1; i < items.length; i++) {
    if (matches(items[i]!, query)) return i;
  }
  return -1;
}

/**
 * Where the match at `at` stands among the loaded matches: `position` counts from the
 * newest (as n goes, older), `total` is how many there are.
 */
export function matchPosition(
  items: readonly Item[],
  query: string,
  at: number,
): { position: number; total: number } {
  let position = 0;
  let total = 0;
  items.forEach((item, i) => {
    if (!matches(item, query)) return;
    total++;
    if (i >= at) position++;
  });
  return { position, total };
}

/**
 * " · 3 of 12" for the match with `key`, " · 3 of 12 so far" while `partial` (history is
 * left unloaded, older or newer); "" when it is not loaded.
 */
export function matchCountText(
  items: readonly Item[],
  query: string,
  key: string,
  partial: boolean,
): string {
  const at = items.findIndex((item) => item.key === key);
  if (at < 0) return "";
  const { position, total } = matchPosition(items, query, at);
  return ` · ${position} of ${total}${partial ? " so far" : ""}`;
}

/** One character of an item's lines (a code point), lower-cased, and where it is. */
type Char = { c: string; line: number; segment: number; offset: number; length: number };
/** Between two lines: where the text wrapped, and the wrap may have taken a space. */
const BREAK = null;

function charsOf(lines: readonly Line[]): (Char | typeof BREAK)[] {
  const chars: (Char | typeof BREAK)[] = [];
  lines.forEach((line, l) => {
    if (l > 0) chars.push(BREAK);
    line.forEach((segment, s) => {
      let offset = 0;
      for (const ch of segment.text) {
        const lower = ch.toLocaleLowerCase();
        // Where lower-casing changes the length, the character matches nothing.
        const c = lower.length === ch.length ? lower : "\u0000";
        chars.push({ c, line: l, segment: s, offset, length: ch.length });
        offset += ch.length;
      }
    });
  });
  return chars;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/u.test(c);

/**
 * The characters of a match of `needle` that starts at `start`, and the index after it,
 * or undefined. Across a
 * line break the next line's indent is skipped, and so is the query's space there (the
 * wrap took it); a word cut at the edge matches without one.
 */
function matchAt(
  chars: readonly (Char | typeof BREAK)[],
  start: number,
  needle: readonly string[],
): { matched: Char[]; end: number } | undefined {
  const matched: Char[] = [];
  let i = start;
  for (let n = 0; n < needle.length; ) {
    const at = chars[i];
    if (at === undefined) return undefined;
    if (at === BREAK) {
      i++;
      while (isSpace((chars[i] as Char | null | undefined)?.c)) i++;
      while (isSpace(needle[n])) n++;
      continue;
    }
    if (at.c !== needle[n]) return undefined;
    matched.push(at);
    i++;
    n++;
  }
  return { matched, end: i };
}

/** `lines` with every occurrence of `query` marked `inverse`, also one that wraps. */
export function highlight(lines: readonly Line[], query: string): Line[] {
  if (query === "") return [...lines];
  const needle = [...query.toLocaleLowerCase()];
  const chars = charsOf(lines);
  const marked = new Set<Char>();
  for (let start = 0; start < chars.length; start++) {
    if (chars[start] === BREAK) continue;
    const match = matchAt(chars, start, needle);
    if (!match || match.matched.length === 0) continue;
    for (const c of match.matched) marked.add(c);
    start = match.end - 1;
  }
  if (marked.size === 0) return [...lines];
  const inverse = lines.map((line) => line.map(() => new Set<number>()));
  for (const c of marked) {
    for (let k = 0; k < c.length; k++) inverse[c.line]![c.segment]!.add(c.offset + k);
  }
  return lines.map((line, l) =>
    line.flatMap((segment, s) => {
      const at = inverse[l]![s]!;
      if (at.size === 0) return [segment];
      const parts: Line = [];
      let from = 0;
      for (let i = 1; i <= segment.text.length; i++) {
        if (i < segment.text.length && at.has(i) === at.has(from)) continue;
        const text = segment.text.slice(from, i);
        parts.push(at.has(from) ? { ...segment, text, inverse: true } : { ...segment, text });
        from = i;
      }
      return parts;
    }),
  );
}

/** The first of `lines` that shows the query, for a match inside a long message. */
export function firstMatchingLine(lines: readonly Line[], query: string): number {
  const found = highlight(lines, query).findIndex((line) => line.some((s) => s.inverse));
  return Math.max(0, found);
}
