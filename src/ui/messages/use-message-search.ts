// Search in the open conversation: the text typed, the match shown, and the walk through
// older pages while no older match is loaded yet (Esc stops it). n goes to the next older
// match, N to the next newer one; the matching itself is pure (search.ts). Only a
// window of history is kept (queries/history.ts): a walk far back drops the newest pages,
// and N walks through newer pages the same way when the window no longer holds them.
import { useEffect, useMemo, useState } from "react";
import type { Item } from "./message-lines.ts";
import { matchCountText, newerMatch, olderMatch } from "./search.ts";

/** Paging through a conversation's windowed history (queries/history.ts). */
export type HistoryPaging = {
  hasOlder: boolean;
  isLoadingOlder: boolean;
  loadOlder: () => void;
  /** The newest messages are not loaded (the history is windowed far back). */
  hasNewer: boolean;
  isLoadingNewer: boolean;
  loadNewer: () => void;
};

export type SearchState = {
  query: string;
  /** The prompt is open. */
  typing: boolean;
  matchKey?: string;
  /**
   * Looking for a match older than this item (undefined: the newest match of all), or
   * newer than `afterKey`. An item no longer in the window was passed by the pages loaded
   * since: everything loaded is then on the far side of it.
   */
  seeking?: { beforeKey: string | undefined } | { afterKey: string };
  /** What the last step found or did not: "no older match", "stopped". */
  note?: string;
};

/**
 * Where an older match is looked for: below `beforeKey`; everywhere when there is none, or
 * when it was passed (dropped with the newest pages as older ones loaded).
 */
function beforeIndex(items: readonly Item[], beforeKey: string | undefined, passed: boolean) {
  const index = beforeKey === undefined ? -1 : items.findIndex((i) => i.key === beforeKey);
  return index < 0 && (beforeKey === undefined || passed) ? items.length : index;
}

type Walk = { seeking: object; items: readonly Item[]; keys: Set<string>; count: number };

/**
 * How many messages a search's walk through pages has gone over: the window of pages
 * moves with it, so the number loaded no longer says. Counts the items each new window
 * brings that the one before did not hold.
 */
function useWalked(items: readonly Item[], seeking: object | undefined): number {
  const [walk, setWalk] = useState<Walk | undefined>(undefined);
  // Counted after each render that brought a new window: the count a frame behind it.
  // Not while no walk is under way: a state set after every new message, even to what it
  // was, made React render the pane and Ink draw the frame a second time for each one.
  useEffect(() => {
    if (!seeking) {
      if (walk !== undefined) setWalk(undefined);
      return;
    }
    setWalk((last) => {
      const keysOf = (list: readonly Item[]) => new Set(list.map((i) => i.key));
      if (last?.seeking !== seeking) {
        return { seeking, items, keys: keysOf(items), count: items.length };
      }
      if (last.items === items) return last;
      const added = items.filter((i) => !last.keys.has(i.key)).length;
      return { seeking, items, keys: keysOf(items), count: last.count + added };
    });
  }, [items, seeking, walk]);
  if (!seeking) return 0;
  return walk?.seeking === seeking ? walk.count : items.length;
}

export function useMessageSearch(items: readonly Item[], history: HistoryPaging) {
  const [search, setSearch] = useState<SearchState | null>(null);
  const walked = useWalked(items, search?.seeking);
  const indexOf = (key: string | undefined) => items.findIndex((item) => item.key === key);

  // While seeking: a match among the loaded messages, else the next older (newer) page.
  const { hasOlder, isLoadingOlder, loadOlder, hasNewer, isLoadingNewer, loadNewer } = history;
  useEffect(() => {
    if (!search?.seeking) return;
    const { seeking } = search;
    const found =
      "afterKey" in seeking
        ? newerMatch(
            items,
            search.query,
            items.findIndex((i) => i.key === seeking.afterKey),
          )
        : olderMatch(items, search.query, beforeIndex(items, seeking.beforeKey, hasNewer));
    const older = !("afterKey" in seeking);
    if (found >= 0) {
      setSearch({ ...search, seeking: undefined, matchKey: items[found]!.key, note: undefined });
    } else if (older ? hasOlder : hasNewer) {
      if (older ? !isLoadingOlder : !isLoadingNewer) (older ? loadOlder : loadNewer)();
    } else {
      const note = !older ? "no newer match" : search.matchKey ? "no older match" : "no match";
      setSearch({ ...search, seeking: undefined, note });
    }
  }, [search, items, hasOlder, isLoadingOlder, loadOlder, hasNewer, isLoadingNewer, loadNewer]);

  // "3 of 12": the match among those loaded; "so far" while history is left unloaded.
  const query = search?.query ?? "";
  const matchKey = search?.seeking ? undefined : search?.matchKey;
  const counted = useMemo(
    () =>
      matchKey === undefined ? "" : matchCountText(items, query, matchKey, hasOlder || hasNewer),
    [items, query, matchKey, hasOlder, hasNewer],
  );
  const status = !search
    ? ""
    : search.seeking
      ? `searching… ${walked} messages · Esc stops`
      : search.note
        ? `/${search.query}: ${search.note}${counted}`
        : search.matchKey
          ? `/${search.query}${counted} · n older · N newer`
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
    /** N: the next newer match (fetching newer pages if the window is far back). */
    newer: () =>
      setSearch((s) => {
        if (!s) return s;
        const found = newerMatch(items, s.query, indexOf(s.matchKey));
        if (found >= 0) return { ...s, matchKey: items[found]!.key, note: undefined };
        if (hasNewer && s.matchKey !== undefined) {
          return { ...s, seeking: { afterKey: s.matchKey }, note: undefined };
        }
        return { ...s, note: "no newer match" };
      }),
    /** Esc: stops a search going through older pages, else ends the search. */
    cancel: () =>
      setSearch((s) => (s?.seeking ? { ...s, seeking: undefined, note: "stopped" } : null)),
  };
}
