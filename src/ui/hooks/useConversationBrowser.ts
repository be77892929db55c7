// The conversation list as the sidebar browses it: the filter tab, the search (through
// every conversation, whatever the filter, matching names loosely, best match first), the
// selected row (kept on a conversation that exists as the list changes) and the open one.
import { useEffect, useMemo, useState } from "react";
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
  const [followBest, setFollowBest] = useState(false);

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
  // in the list, else the first. Worked out here rather than only in an effect, so no frame
  // shows a list without a selection.
  const best = conversations[0]?.id;
  const shownId =
    best !== undefined &&
    ((followBest && searching) || !conversations.some((c) => c.id === selectedId))
      ? best
      : selectedId;
  useEffect(() => {
    if (shownId !== selectedId) setSelectedId(shownId);
  }, [shownId, selectedId]);

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
      setFollowBest(next !== null);
      setSearch(next);
    },
    /** The search prompt closed: with Enter a search keeps filtering, with Esc it goes. */
    endSearch(keep: boolean) {
      setFollowBest(false);
      if (!keep) setSearch(null);
      else setSearch((s) => (s?.trim() ? s : null));
    },
    selectedId: shownId,
    setSelectedId(id: string) {
      setFollowBest(false);
      setSelectedId(id);
    },
    /** The conversation on the right, also selected in the list. */
    openId,
    open(id: string | undefined) {
      setFollowBest(false);
      setOpenId(id);
      if (id !== undefined) setSelectedId(id);
    },
  };
}
