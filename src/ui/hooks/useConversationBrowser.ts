// The conversation list as the sidebar browses it: the filter tab, a name search, the
// selected row (kept on a conversation that exists as the list changes) and the open one.
import { useEffect, useMemo, useState } from "react";
import { conversationName } from "../names.ts";
import { type Filter, useConversationList } from "../queries/conversations.ts";
import { useContacts } from "../session.tsx";

export function useConversationBrowser() {
  const contacts = useContacts();
  const [filter, setFilter] = useState<Filter>("all");
  const [selectedId, setSelectedId] = useState<string>();
  const [search, setSearch] = useState<string | null>(null);
  // The search prompt is open (it owns the keys); once closed with Enter, the search stays.
  const [prompting, setPrompting] = useState(false);
  const [openId, setOpenId] = useState<string>();

  const list = useConversationList(filter, search !== null);
  const conversations = useMemo(() => {
    if (!search) return list.conversations;
    const q = search.toLowerCase();
    return list.conversations.filter((c) =>
      conversationName(c, contacts).toLowerCase().includes(q),
    );
  }, [list.conversations, search, contacts]);

  useEffect(() => {
    if (conversations.length > 0 && !conversations.some((c) => c.id === selectedId)) {
      setSelectedId(conversations[0]!.id);
    }
  }, [conversations, selectedId]);

  return {
    list,
    conversations,
    filter,
    /** A filter tab: the whole list of that filter, no search. */
    showFilter(next: Filter) {
      setFilter(next);
      setSearch(null);
      setPrompting(false);
    },
    search,
    setSearch,
    prompting,
    /** Opens the search prompt, on the search kept from last time if there is one. */
    openSearch() {
      setSearch((s) => s ?? "");
      setPrompting(true);
    },
    /** The search prompt closed: with Enter a search keeps filtering, with Esc it goes. */
    endSearch(keep: boolean) {
      setPrompting(false);
      if (!keep) setSearch(null);
      else setSearch((s) => (s === "" ? null : s));
    },
    selectedId,
    setSelectedId,
    /** The conversation on the right, also selected in the list. */
    openId,
    open(id: string | undefined) {
      setOpenId(id);
      if (id !== undefined) setSelectedId(id);
    },
  };
}
