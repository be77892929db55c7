// The one query-key factory. Invalidation by prefix follows from the shape:
// keys.conversations.all() covers every list and detail, keys.messages.list(id) one history.
import type { ListConversationsParams } from "../../api/schema.ts";

const root = ["parley"] as const;

export const keys = {
  root,
  conversations: {
    all: () => [...root, "conversations"] as const,
    lists: () => [...keys.conversations.all(), "list"] as const,
    list: (params: ListConversationsParams) => [...keys.conversations.lists(), params] as const,
    detail: (id: string) => [...keys.conversations.all(), "detail", id] as const,
    /** Ids of every muted conversation (whatever the sidebar's filter has loaded). */
    mutedIds: () => [...keys.conversations.all(), "muted-ids"] as const,
  },
  messages: {
    all: () => [...root, "messages"] as const,
    /** Infinite history of one conversation, newest page first. */
    /** Every conversation's history (its pages). */
    lists: () => [...keys.messages.all(), "list"] as const,
    list: (conversationId: string) => [...keys.messages.lists(), conversationId] as const,
    detail: (id: string) => [...keys.messages.all(), "detail", id] as const,
    /** The newest messages across every conversation: what arrived, for notifications. */
    inbox: () => [...keys.messages.all(), "inbox"] as const,
    /** The newest page, polled and merged into the history. */
    latest: (conversationId: string) => [...keys.messages.all(), "latest", conversationId] as const,
    /** Every preview of one conversation, whatever its activity. */
    previews: (conversationId: string) =>
      [...keys.messages.all(), "preview", conversationId] as const,
    /** Preview and unread count of a sidebar row; refetched only when the activity changes. */
    preview: (conversationId: string, lastActiveAt: number | null, newestSeen?: string | null) =>
      newestSeen === undefined
        ? ([...keys.messages.all(), "preview", conversationId, lastActiveAt] as const)
        : ([...keys.messages.all(), "preview", conversationId, lastActiveAt, newestSeen] as const),
  },
  contacts: {
    all: () => [...root, "contacts"] as const,
    /** The people whose user names hold `text` (GET /v1/contacts, parley's extension). */
    search: (text: string) => [...keys.contacts.all(), "search", text] as const,
  },
};
