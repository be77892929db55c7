// The conversation list as the sidebar browses it: the filter tab, the search (through
// every conversation, whatever the filter, matching names loosely, best match first), the
// selected row (kept on a conversation that exists as the list changes) and the open one.
import { useEffect, useMemo, useRef, useState } from "react";
import { fuzzyFilter } from "../fuzzy.ts";
import { conversationName } from "../names.ts";
import {
  type Filter,
  useConversationList,
  useEveryConversation,
} from "../queries/conversations.ts";
import { useContacts } from "../session.tsx";

export function useConversationBrowser() {
  const contacts = useContacts();
  const [filter, setFilter] = useState<Filter>("all");
  const [selectedId, setSelectedId] = useState<string>();
  const [search, setSearch] = useState<string | null>(null);
  const [openId, setOpenId] = useState<string>();
  // While the search text changes, the selection follows the best match; a move stops that.
  const followBest = useRef(false);

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

  useEffect(() => {
    const best = conversations[0];
    if (!best) return;
    if ((followBest.current && searching) || !conversations.some((c) => c.id === selectedId)) {
      if (best.id !== selectedId) setSelectedId(best.id);
    }
  }, [conversations, selectedId, searching]);

  return {
    list,
    conversations,
    filter,
    /** A filter tab: the whole list of that filter, no search. */
    showFilter(next: Filter) {
      setFilter(next);
      setSearch(null);
    },
    search,
    setSearch(next: string | null) {
      followBest.current = next !== null;
      setSearch(next);
    },
    /** The search prompt closed: with Enter a search keeps filtering, with Esc it goes. */
    endSearch(keep: boolean) {
      followBest.current = false;
      if (!keep) setSearch(null);
      else setSearch((s) => (s?.trim() ? s : null));
    },
    selectedId,
    setSelectedId(id: string) {
      followBest.current = false;
      setSelectedId(id);
    },
    /** The conversation on the right, also selected in the list. */
    openId,
    open(id: string | undefined) {
      followBest.current = false;
      setOpenId(id);
      if (id !== undefined) setSelectedId(id);
    },
  };
}
