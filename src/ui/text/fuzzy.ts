// Loose matching of names, as a person types them: `tm` finds `#team`. A name matches
// when the query's characters appear in it in order (a subsequence), and matches rank by
// how well: the name starts with the query (leading `#` or `@` aside), then the query
// starts a word of it (`2024` in `#archive-2024`), then it is inside a word, then its
// characters are spread out (closer together first). Ties keep the order given. Pure.

/** How well a name matched: lower is better. */
export type Match = { tier: 0 | 1 | 2 | 3; at: number; span: number };

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

/** Where the name's words start: its first character, and each after a non-word one. */
function wordStarts(name: readonly string[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < name.length; i++) {
    if (isWordChar(name[i]) && !isWordChar(name[i - 1])) starts.push(i);
  }
  return starts;
}

function startsAt(name: readonly string[], query: readonly string[], at: number): boolean {
  return query.every((ch, i) => name[at + i] === ch);
}

/** The tightest place the query's characters appear in order, as [start, span]. */
function subsequence(name: readonly string[], query: readonly string[]): [number, number] | null {
  let best: [number, number] | null = null;
  for (let start = 0; start < name.length; start++) {
    if (name[start] !== query[0]) continue;
    let j = 1;
    let i = start + 1;
    for (; i < name.length && j < query.length; i++) if (name[i] === query[j]) j++;
    if (j < query.length) break; // no later start can finish either
    const span = i - start;
    if (!best || span < best[1]) best = [start, span];
  }
  return best;
}

/** How `name` matches `query` (case and spaces in the query ignored), or null. */
export function fuzzyMatch(query: string, name: string): Match | null {
  const q = [...query.toLowerCase().replace(/\s+/g, "")];
  if (q.length === 0) return { tier: 0, at: 0, span: 0 };
  const n = [...name.toLowerCase()];
  const first = wordStarts(n)[0] ?? 0;
  if (startsAt(n, q, 0) || startsAt(n, q, first)) return { tier: 0, at: 0, span: q.length };
  const word = wordStarts(n).find((i) => startsAt(n, q, i));
  if (word !== undefined) return { tier: 1, at: word, span: q.length };
  for (let i = 0; i + q.length <= n.length; i++) {
    if (startsAt(n, q, i)) return { tier: 2, at: i, span: q.length };
  }
  const loose = subsequence(n, q);
  return loose ? { tier: 3, at: loose[0], span: loose[1] } : null;
}

function compare(a: Match, b: Match): number {
  return a.tier - b.tier || a.span - b.span || a.at - b.at;
}

/** The items whose name matches, best first; equally good ones in the order given. */
export function fuzzyFilter<T>(
  items: readonly T[],
  query: string,
  nameOf: (item: T) => string,
): T[] {
  const matched: { item: T; match: Match; index: number }[] = [];
  items.forEach((item, index) => {
    const match = fuzzyMatch(query, nameOf(item));
    if (match) matched.push({ item, match, index });
  });
  matched.sort((a, b) => compare(a.match, b.match) || a.index - b.index);
  return matched.map((m) => m.item);
}
