// The conversation list as the sidebar browses it: the filter tab, a name search, the
// selected row (kept on a conversation that exists as the list changes) and the open one,
// with when it was last opened before (where its unread messages start).
import { useEffect, useMemo, useState } from "react";
import type { Conversation } from "../../api/schema.ts";
import { conversationName } from "../names.ts";
import { type Filter, useConversationList } from "../queries/conversations.ts";
import { useFindUnread } from "../queries/previews.ts";
import { useContacts, useMe } from "../session.tsx";

export function useConversationBrowser() {
  const contacts = useContacts();
  const [filter, setFilter] = useState<Filter>("all");
  const [selectedId, setSelectedId] = useState<string>();
  const [search, setSearch] = useState<string | null>(null);
  const [opened, setOpened] = useState<{ id: string; lastOpenedAt: number | null }>();
  const openId = opened?.id;
  const findUnread = useFindUnread(useMe());

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
    },
    search,
    setSearch,
    /** The search prompt closed: with Enter a search keeps filtering, with Esc it goes. */
    endSearch(keep: boolean) {
      if (!keep) setSearch(null);
      else setSearch((s) => (s === "" ? null : s));
    },
    selectedId,
    setSelectedId,
    /** The conversation on the right, also selected in the list. */
    openId,
    /**
     * When the open conversation was last opened before this time (opening it marks it read
     * on the server): messages from others after it were unread.
     */
    lastOpenedBefore: opened?.lastOpenedAt ?? null,
    open(conversation: Conversation | undefined) {
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
