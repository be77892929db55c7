// Rings the terminal bell and sends a desktop notification (OSC 777 / OSC 9, which reach
// the person's own machine across SSH) when a message from someone else arrives in a
// conversation that is not muted and not the one on screen. Muted conversations never
// notify; each switch is in the config file (`bell`, `notifications`).
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { Conversation, Message } from "../../api/schema.ts";
import { conversationName } from "../names.ts";
import type { ConversationPages } from "../queries/cache.ts";
import { useFetchMutedIds } from "../queries/conversations.ts";
import { useInbox } from "../queries/messages.ts";
import { keys } from "../queries/queryKeys.ts";
import { useMe, useSession } from "../session.tsx";
import { notify } from "../terminal.ts";

function findConversation(
  queryClient: ReturnType<typeof useQueryClient>,
  id: string,
): Conversation | undefined {
  const detail = queryClient.getQueryData<Conversation>(keys.conversations.detail(id));
  if (detail) return detail;
  for (const [, data] of queryClient.getQueriesData<ConversationPages>({
    queryKey: keys.conversations.lists(),
  })) {
    for (const page of data?.pages ?? []) {
      const found = page.data.find((c) => c.id === id);
      if (found) return found;
    }
  }
  return undefined;
}

export function useNotifications(openId: string | undefined): void {
  const session = useSession();
  const me = useMe();
  const queryClient = useQueryClient();
  const inbox = useInbox();
  const fetchMutedIds = useFetchMutedIds();
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!inbox) return;
    // The first answer is history, not news.
    if (seen.current === null) {
      seen.current = new Set(inbox.map((m) => m.id));
      return;
    }
    const fresh: Message[] = [];
    for (const m of inbox) {
      if (seen.current.has(m.id)) continue;
      seen.current.add(m.id);
      if (m.contact.username !== me && m.conversation_id !== openId) fresh.push(m);
    }
    if (fresh.length === 0) return;
    const options = session.notify ?? { bell: true, desktop: true };
    void fetchMutedIds().then((mutedIds) => {
      for (const m of fresh.reverse()) {
        const conversation = findConversation(queryClient, m.conversation_id);
        // The server's answer, else what the cache knows.
        if (mutedIds ? mutedIds.has(m.conversation_id) : conversation?.is_muted) continue;
        const where = conversation
          ? conversationName(conversation, session.contacts.get())
          : "parley";
        const title = where.startsWith("#")
          ? `${m.contact.username} in ${where}`
          : m.contact.username;
        notify(session.terminal, title, m.message || "sent an attachment", options);
      }
    });
  }, [inbox, me, openId, queryClient, session, fetchMutedIds]);
}
