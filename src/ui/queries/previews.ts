// What the sidebar and the notifications know of conversations that are not open: each
// row's newest messages (preview and unread count), and the newest messages across all
// conversations (the inbox, which rings and notifies).
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { Conversation, Message, Page } from "../../api/schema.ts";
import { mentions } from "../model/mentions.ts";
import { isUnread } from "../model/unread.ts";
import { learnIdentityFrom, type Session } from "../screen/session.ts";
import { useSession } from "../screen/session-context.tsx";
import { usePoll, usePollPace } from "./polling.ts";
import { keys } from "./query-keys.ts";
import { lastKnownPreview } from "./restore.ts";

const PREVIEW_PAGE = 20;
const INBOX_PAGE = 20;

export type Preview = {
  newest: Message | undefined;
  unread: number;
  unreadMore: boolean;
  /** Whether an unread message names you (`@you`). */
  mentioned: boolean;
};

/**
 * A sidebar row's newest messages. Keyed by the conversation's last activity, so it is
 * fetched again only when something new happened there (opening it changes nothing the
 * row shows but the unread count, which is worked out here from the open time). The
 * activity is in whole seconds, so the key also holds the newest message of this
 * conversation the inbox has seen: a second message within the same second changes that.
 */
export function previewOptions(
  session: Session,
  conversation: Conversation,
  newestSeen: string | null,
) {
  return queryOptions({
    queryKey: keys.messages.preview(conversation.id, conversation.last_active_at, newestSeen),
    queryFn: async () => {
      const page = await session.api.messages.list({
        conversation_id: conversation.id,
        limit: PREVIEW_PAGE,
      });
      session.contacts.learn(page.data);
      learnIdentityFrom(session, conversation, page.data);
      return page;
    },
    enabled: conversation.last_active_at !== null,
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: (previous) => previous,
  });
}

export function usePreview(
  conversation: Conversation,
  me: string | undefined,
): Preview | undefined {
  const session = useSession();
  // Read from the inbox the notifications poll; this row never fetches it itself.
  const { data: newestSeen = null } = useQuery({
    ...inboxOptions(session),
    staleTime: Number.POSITIVE_INFINITY,
    select: (inbox) => inbox.find((m) => m.conversation_id === conversation.id)?.id ?? null,
  });
  const queryClient = useQueryClient();
  const { data: fetched } = useQuery(previewOptions(session, conversation, newestSeen));
  // Before the inbox answers (at a start, or offline), the kept preview under its old key.
  const data =
    fetched ??
    lastKnownPreview<Page<Message>>(queryClient, conversation.id, conversation.last_active_at);
  return useMemo(() => {
    if (!data) return undefined;
    const unreadMessages = data.data.filter((m) => isUnread(m, conversation.last_opened_at, me));
    return {
      newest: data.data[0],
      unread: unreadMessages.length,
      unreadMore: unreadMessages.length === data.data.length && data.has_more,
      mentioned: unreadMessages.some((m) => mentions(m.message, me)),
    };
  }, [data, conversation.last_opened_at, me]);
}

/**
 * Finds the first conversation of a list, from index `start` on and round to the start,
 * whose row shows unread messages (muted ones and `skipId` left out), from what the rows
 * already fetched.
 */
export function useFindUnread(me: string | undefined) {
  const queryClient = useQueryClient();
  return useCallback(
    (conversations: readonly Conversation[], start: number, skipId: string | undefined) => {
      for (let step = 0; step < conversations.length; step++) {
        const c = conversations[(start + step) % conversations.length]!;
        if (c.id === skipId || c.is_muted) continue;
        const rows = queryClient.getQueriesData<Page<Message>>({
          queryKey: keys.messages.preview(c.id, c.last_active_at),
        });
        if (rows.some(([, page]) => page?.data.some((m) => isUnread(m, c.last_opened_at, me))))
          return c;
      }
      return undefined;
    },
    [queryClient, me],
  );
}

export function inboxOptions(session: Session) {
  return queryOptions({
    queryKey: keys.messages.inbox(),
    queryFn: async () => {
      const page = await session.api.messages.list({ limit: INBOX_PAGE });
      session.contacts.learn(page.data);
      return page.data;
    },
  });
}

/**
 * The newest messages across all conversations, polled at the conversation list's pace;
 * not at all while the event stream is up, whose events keep it (events.ts).
 */
export function useInbox(): Message[] | undefined {
  const { data } = useQuery(inboxOptions(useSession()));
  usePoll(keys.messages.inbox(), usePollPace().listMs, true, { onScreen: false });
  return data;
}
