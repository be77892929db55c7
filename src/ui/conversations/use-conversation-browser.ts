// The conversation list as the sidebar browses it: the filter tab, the search (through
// every conversation, whatever the filter, matching names loosely, best match first), the
// selected row (kept on a conversation that exists as the list changes) and the open one,
// with when it was last opened before (where its unread messages start).
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { Conversation } from "../../api/schema.ts";
import {
  type Filter,
  useConversationList,
  useEveryConversation,
  useListsFetching,
} from "../queries/conversations.ts";
import { useFindUnread } from "../queries/previews.ts";
import { useQueuedChanges } from "../queries/use-outbox.ts";
import { useContacts, useMe } from "../screen/session-context.tsx";
import { fuzzyFilter } from "../text/fuzzy.ts";
import { conversationName } from "./names.ts";

export function useConversationBrowser() {
  const contacts = useContacts();
  const [filter, setFilter] = useState<Filter>("all");
  const [selectedId, setSelectedId] = useState<string>();
  const [search, setSearch] = useState<string | null>(null);
  const [opened, setOpened] = useState<{ id: string; lastOpenedAt: number | null }>();
  const openId = opened?.id;
  const findUnread = useFindUnread(useMe());
  // While the search text changes, the selection follows the best match; a move stops that.
  const [followBest, setFollowBest] = useState(false);
  // The search prompt is open (it owns the keys); once closed with Enter, the search stays.
  const [prompting, setPrompting] = useState(false);

  const filtered = useConversationList(filter);
  const every = useEveryConversation(search !== null);
  const searching = Boolean(search?.trim());
  const list = searching ? every : filtered;
  const conversations = useMemo(
    () =>
      searching
        ? fuzzyFilter(every.conversations, search ?? "", (c) => conversationName(c, contacts))
        : filtered.conversations,
    [searching, every.conversations, filtered.conversations, search, contacts],
  );

  // The selection shown: the best match while following it, else the selected row if it is
  // in the list, else the row that took its place (archiving, muting under a filter or
  // deleting keeps the cursor among its neighbours), else the first. Worked out here rather
  // than only in an effect, so no frame shows a list without a selection.
  const best = conversations[0]?.id;
  const selectedAt = conversations.findIndex((c) => c.id === selectedId);
  // Where the selected row was when last drawn in the list.
  const lastAt = useRef(0);
  // The filter the selected row was last drawn in: it left that list, or the tab changed.
  const seenIn = useRef<Filter | undefined>(undefined);
  useLayoutEffect(() => {
    if (selectedAt >= 0) {
      lastAt.current = selectedAt;
      seenIn.current = searching ? undefined : filter;
    }
  });
  const inPlace = conversations[Math.min(lastAt.current, conversations.length - 1)]?.id;
  const shownId =
    best !== undefined && followBest && searching
      ? best
      : selectedAt >= 0
        ? selectedId
        : (inPlace ?? best ?? selectedId);
  // A row that took the selected one's place is only shown, not made the selection, while
  // the list may not have the last word on it: a pin, mute, archive or delete of it still
  // on its way to the server, or an answer on its way. Muted and then listed under
  // "Muted" at once, a conversation can be missing from the server's first answer, and
  // the cursor stayed on another row once the next answer had it.
  const changes = useQueuedChanges();
  const missing = selectedAt < 0 && !(followBest && searching);
  const fetching = useListsFetching(missing);
  const settling =
    missing &&
    (fetching ||
      changes.some(
        ({ change, status }) =>
          status !== "failed" &&
          change.conversationId === selectedId &&
          (change.kind === "updateConversation" || change.kind === "deleteConversation"),
      ));
  // The conversation that left the list under the cursor (archived, restored, muted under
  // Muted): the next filter tab goes back to it if it is there. Restored from Archived and
  // then 1, the cursor stayed on the archived row that took its place, and All had not
  // that one: it went to the first row, and the next m or p acted on it.
  const departed = useRef<string | undefined>(undefined);
  // The tab asked for last, ahead of its render: an effect of a render before a tab
  // change runs after the change (React runs it before the next render) and must not
  // decide for the new tab.
  const filterAsked = useRef(filter);
  useEffect(() => {
    if (shownId === selectedId || settling || filterAsked.current !== filter) return;
    // Gone from the list it was in (not left behind by a change of tab).
    if (selectedId !== undefined && !followBest && seenIn.current === filter) {
      departed.current = selectedId;
    }
    setSelectedId(shownId);
  }, [shownId, selectedId, settling, followBest, filter]);

  return {
    list,
    conversations,
    filter,
    /** A filter tab: the whole list of that filter, no search. */
    showFilter(next: Filter) {
      lastAt.current = 0;
      // Gone from this tab's list, whether or not the effect above has said so yet.
      const left =
        selectedAt < 0 && !(followBest && searching) && seenIn.current === filter
          ? selectedId
          : undefined;
      const back = departed.current ?? left;
      if (back !== undefined) setSelectedId(back);
      departed.current = undefined;
      filterAsked.current = next;
      setFilter(next);
      setSearch(null);
      setPrompting(false);
    },
    search,
    setSearch(next: string | null) {
      lastAt.current = 0;
      setFollowBest(next !== null);
      setSearch(next);
    },
    prompting,
    /** Opens the search prompt, on the search kept from last time if there is one. */
    openSearch() {
      setFollowBest(true);
      setSearch((s) => s ?? "");
      setPrompting(true);
    },
    /** The search prompt closed: with Enter a search keeps filtering, with Esc it goes. */
    endSearch(keep: boolean) {
      setFollowBest(false);
      setPrompting(false);
      if (!keep) setSearch(null);
      else setSearch((s) => (s?.trim() ? s : null));
    },
    selectedId: shownId,
    setSelectedId(id: string) {
      setFollowBest(false);
      departed.current = undefined;
      // A row picked from those drawn was seen in this list, even if a key's change takes it
      // out before a frame draws it selected: 4, then a on the first row (only shown as
      // selected while a list was on its way), then 1 went to the first row of All.
      if (conversations.some((c) => c.id === id)) seenIn.current = searching ? undefined : filter;
      setSelectedId(id);
    },
    /** The conversation on the right, also selected in the list. */
    openId,
    /**
     * When the open conversation was last opened before this time (opening it marks it read
     * on the server): messages from others after it were unread.
     */
    lastOpenedBefore: opened?.lastOpenedAt ?? null,
    open(conversation: Conversation | undefined) {
      setFollowBest(false);
      departed.current = undefined;
      setOpened(conversation && { id: conversation.id, lastOpenedAt: conversation.last_opened_at });
      if (conversation !== undefined) setSelectedId(conversation.id);
    },
    /** The next conversation in the list with unread messages: after the open one, else
     * from the selected one on. */
    nextUnread: () => {
      const at = conversations.findIndex((c) => c.id === (openId ?? selectedId));
      return findUnread(conversations, openId ? at + 1 : Math.max(0, at), openId);
    },
  };
}
