// Where the message pane goes by itself, rather than by a key: to the first unread message
// when a conversation opens, to the bottom when you send, to a search's match.
import { useEffect, useRef, useState } from "react";
import { isUnread } from "../model/unread.ts";
import type { Item, Line } from "./message-lines.ts";
import { firstMatchingLine } from "./search.ts";
import type { useMessageScroll } from "./use-message-scroll.ts";
import { endAnchor, type Geometry, viewportAt } from "./window.ts";

type Scroll = ReturnType<typeof useMessageScroll>;

type History = {
  isLoading: boolean;
  hasOlder: boolean;
  isLoadingOlder: boolean;
  loadOlder: () => void;
};

/** Older pages loaded at most to find where many unread messages start. */
const UNREAD_SEARCH_LIMIT = 500;

/**
 * The first unread message, decided once, on the first history shown (what arrives while
 * the conversation is open is not marked), older pages loaded first while all loaded
 * messages are newer than the last opening. `goToStart` then goes there if the newest
 * screenful does not show it, and nothing has moved the view meanwhile: a key pressed
 * while older pages loaded is where the person chose to be.
 */
export function useUnreadStart(
  items: readonly Item[],
  history: History,
  lastOpenedAt: number | null,
  me: string | undefined,
) {
  const [unreadKey, setUnreadKey] = useState<string | null>();
  const oldest = items[0];
  // Older pages only while the oldest loaded message is itself unread: the start lies
  // further back. (A run of your own messages ends the walk: without that, a conversation
  // you wrote a lot in since you last opened it would be loaded whole.)
  const olderNeeded =
    history.hasOlder &&
    lastOpenedAt !== null &&
    oldest?.kind === "message" &&
    isUnread(oldest.message, lastOpenedAt, me) &&
    items.length < UNREAD_SEARCH_LIMIT;
  const decided = unreadKey !== undefined || history.isLoading || items.length === 0;
  return {
    unreadKey: unreadKey ?? undefined,
    /**
     * Decides, and starts there: for an effect after layout, with the pane's scroll (it
     * needs the geometry of what was drawn).
     */
    goToStart(scroll: Scroll, geometry: Geometry) {
      if (decided) return;
      if (olderNeeded) {
        if (!history.isLoadingOlder) history.loadOlder();
        return;
      }
      const key = firstUnreadKey(items, lastOpenedAt, me);
      setUnreadKey(key ?? null);
      if (scroll.moved()) return;
      const index = items.findIndex((item) => item.key === key);
      const end = viewportAt(endAnchor(geometry), geometry);
      if (index >= 0 && (index < end.top || (index === end.top && end.clipTop > 0))) {
        scroll.showFrom(index);
      }
    },
  };
}

/** Your own send takes the view to the bottom, wherever you had scrolled. */
export function useFollowOwnSend(items: readonly Item[], scroll: Scroll) {
  const newest = items[items.length - 1];
  const sending = newest?.kind === "outbox" ? newest.key : undefined;
  const followed = useRef(sending);
  useEffect(() => {
    if (sending === followed.current) return;
    followed.current = sending;
    if (sending !== undefined) scroll.follow();
  });
}

/**
 * A new match is selected, with the line that shows it near the top of a tall message.
 * Says whether a match is still to be shown: until then the view is not where it goes.
 */
export function useShowMatch(
  items: readonly Item[],
  match: { key: string | undefined; query: string },
  layout: (i: number) => Line[],
  height: number,
  scroll: Scroll,
): boolean {
  const shown = useRef<string>(undefined);
  useEffect(() => {
    if (match.key === shown.current) return;
    shown.current = match.key;
    const index = items.findIndex((item) => item.key === match.key);
    if (index < 0) return;
    const lines = layout(index);
    if (lines.length <= height) scroll.select(index);
    else scroll.showFrom(index, Math.max(0, firstMatchingLine(lines, match.query) - 1));
  });
  return match.key !== shown.current;
}

/** The key of the first unread item, or undefined when none is (or none is loaded). */
export function firstUnreadKey(
  items: readonly Item[],
  lastOpenedAt: number | null,
  me: string | undefined,
): string | undefined {
  return items.find((item) => item.kind === "message" && isUnread(item.message, lastOpenedAt, me))
    ?.key;
}
