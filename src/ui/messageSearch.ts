// Search in the open conversation's text (pure): which loaded item matches, and the
// matched text marked in an item's lines.
import type { Item, Line } from "./messageLines.ts";

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

/** `lines` with every occurrence of `query` inside one segment marked `inverse`. */
export function highlight(lines: readonly Line[], query: string): Line[] {
  if (query === "") return [...lines];
  const needle = query.toLocaleLowerCase();
  return lines.map((line) =>
    line.flatMap((segment) => {
      const lower = segment.text.toLocaleLowerCase();
      // Only where lower-casing kept the length, so indices agree with the text.
      if (lower.length !== segment.text.length || !lower.includes(needle)) return [segment];
      const parts: Line = [];
      let at = 0;
      for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, at)) {
        if (i > at) parts.push({ ...segment, text: segment.text.slice(at, i) });
        parts.push({ ...segment, text: segment.text.slice(i, i + needle.length), inverse: true });
        at = i + needle.length;
      }
      if (at < segment.text.length) parts.push({ ...segment, text: segment.text.slice(at) });
      return parts;
    }),
  );
}

/** The first of `lines` that shows the query, for a match inside a long message. */
export function firstMatchingLine(lines: readonly Line[], query: string): number {
  const needle = query.toLocaleLowerCase();
  const found = lines.findIndex((line) =>
    line.some((s) => s.text.toLocaleLowerCase().includes(needle)),
  );
  return Math.max(0, found);
}
