// Search in the open conversation: the text typed, the match shown, and the walk through
// older pages while no older match is loaded yet (Esc stops it). n goes to the next older
// match, N to the next newer one; the matching itself is pure (messageSearch.ts).
import { useEffect, useState } from "react";
import type { Item } from "./message-lines.ts";
import { newerMatch, olderMatch } from "./search.ts";

type History = { hasOlder: boolean; isLoadingOlder: boolean; loadOlder: () => void };

export type SearchState = {
  query: string;
  /** The prompt is open. */
  typing: boolean;
  matchKey?: string;
  /** Looking for a match older than this item (undefined: the newest match of all). */
  seeking?: { beforeKey: string | undefined };
  /** What the last step found or did not: "no older match", "stopped". */
  note?: string;
};

export function useMessageSearch(items: readonly Item[], history: History) {
  const [search, setSearch] = useState<SearchState | null>(null);
  const indexOf = (key: string | undefined) => items.findIndex((item) => item.key === key);

  // While seeking: a match among the loaded messages, else the next older page.
  const { hasOlder, isLoadingOlder, loadOlder } = history;
  useEffect(() => {
    if (!search?.seeking) return;
    const { beforeKey } = search.seeking;
    const before =
      beforeKey === undefined ? items.length : items.findIndex((i) => i.key === beforeKey);
    const found = olderMatch(items, search.query, before);
    if (found >= 0) {
      setSearch({ ...search, seeking: undefined, matchKey: items[found]!.key, note: undefined });
    } else if (hasOlder) {
      if (!isLoadingOlder) loadOlder();
    } else {
      const note = search.matchKey ? "no older match" : "no match";
      setSearch({ ...search, seeking: undefined, note });
    }
  }, [search, items, hasOlder, isLoadingOlder, loadOlder]);

  const status = !search
    ? ""
    : search.seeking
      ? `searching… ${items.length} messages · Esc stops`
      : search.note
        ? `/${search.query}: ${search.note}`
        : search.matchKey
          ? `/${search.query} · n older · N newer`
          : "";
  return {
    search,
    /** What the pane's title line says about the search. */
    status,
    start: () => setSearch({ query: "", typing: true }),
    type: (query: string) => setSearch((s) => s && { ...s, query }),
    submit: () =>
      setSearch((s) =>
        s && s.query !== ""
          ? { query: s.query, typing: false, seeking: { beforeKey: undefined } }
          : null,
      ),
    /** n: the next older match (fetching older pages as needed). */
    older: () =>
      setSearch((s) => s && { ...s, seeking: { beforeKey: s.matchKey }, note: undefined }),
    /** N: the next newer match (everything newer is loaded). */
    newer: () =>
      setSearch((s) => {
        if (!s) return s;
        const found = newerMatch(items, s.query, indexOf(s.matchKey));
        return found >= 0
          ? { ...s, matchKey: items[found]!.key, note: undefined }
          : { ...s, note: "no newer match" };
      }),
    /** Esc: stops a search going through older pages, else ends the search. */
    cancel: () =>
      setSearch((s) => (s?.seeking ? { ...s, seeking: undefined, note: "stopped" } : null)),
  };
}
