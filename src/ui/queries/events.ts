// News from the server's event stream, written straight into the query cache: the open
// history (and its polled newest page), the inbox that rings and notifies, the sidebar's
// rows, previews and unread counts, the open conversation and a pinned message. The
// outbox's changes are laid over all of it when read, as over polled data. Where an event
// cannot be placed (a row beyond the loaded pages), the lists on screen are fetched again.
import type { QueryClient } from "@tanstack/react-query";
import type { Removed, ServerEvent } from "../../api/events.ts";
import type { Conversation, ListConversationsParams, Message, Page } from "../../api/schema.ts";
import {
  type ConversationPages,
  type MessagePages,
  mapConversations,
  mapMessages,
  prependMessage,
} from "./cache.ts";
import { updateConversationMessages } from "./history.ts";
import { keys } from "./query-keys.ts";

/** As many messages as the inbox's page holds (previews.ts). */
const INBOX_KEPT = 20;

/** Puts one event into the cache. `me` is who this client is, when known. */
export function applyEvent(queryClient: QueryClient, event: ServerEvent, me?: string): void {
  applyToCache(queryClient, event, me);
  askAgainInFlight(queryClient, event);
}

/**
 * A fetch on its way when the event came may have read the server before the change, and
 * its answer, landing after, would put back what the event replaced (polling mended that
 * at the next poll; live, the next refresh is a minute away). Those are asked again: the
 * server made the event after the change, so a request made now sees it. The open history
 * is left out for a new message, which goes into its newest page only (so an older page
 * on its way is not cancelled for it).
 */
function askAgainInFlight(queryClient: QueryClient, event: ServerEvent): void {
  const cache = queryClient.getQueryCache();
  for (const query of cache.findAll({ queryKey: keys.root, fetchStatus: "fetching" })) {
    const [, kind, what] = query.queryKey;
    if (event.type === "message.created" && kind === "messages" && what === "list") continue;
    void queryClient.refetchQueries({ queryKey: query.queryKey, exact: true }).catch(() => {});
  }
}

function applyToCache(queryClient: QueryClient, event: ServerEvent, me?: string): void {
  switch (event.type) {
    case "message.created":
      messageCreated(queryClient, event.message, me);
      break;
    case "message.updated":
      messageUpdated(queryClient, event.message);
      break;
    case "message.deleted":
      messageDeleted(queryClient, event.removed);
      break;
    case "conversation.created":
    case "conversation.updated":
      conversationChanged(queryClient, event.conversation);
      break;
    case "conversation.deleted":
      conversationDeleted(queryClient, event.removed);
      break;
    case "reset":
      void queryClient.invalidateQueries({ queryKey: keys.root });
      break;
  }
}

function messageCreated(queryClient: QueryClient, message: Message, me?: string): void {
  const id = message.conversation_id;
  // Into the newest page, which the screen merges with the loaded history; into the history
  // itself only when there is no newest page.
  const latest = queryClient.getQueryData<Page<Message>>(keys.messages.latest(id));
  if (latest) {
    queryClient.setQueryData(keys.messages.latest(id), {
      ...latest,
      data: [message, ...latest.data.filter((m) => m.id !== message.id)],
    });
  } else {
    queryClient.setQueryData<MessagePages>(
      keys.messages.list(id),
      (data) => data && prependMessage(data, message),
    );
  }
  const inbox = queryClient.getQueryData<Message[]>(keys.messages.inbox());
  if (inbox) {
    queryClient.setQueryData<Message[]>(keys.messages.inbox(), [
      message,
      ...inbox.filter((m) => m.id !== message.id).slice(0, INBOX_KEPT - 1),
    ]);
  }
  // The previews as they were, with the message on top; and the row's new key (its activity
  // and the inbox's newest message of it, previews.ts) seeded with the same, so it shows at once.
  let newest: Page<Message> | undefined;
  queryClient.setQueriesData<Page<Message>>({ queryKey: keys.messages.previews(id) }, (page) => {
    if (!page) return page;
    const next = { ...page, data: [message, ...page.data.filter((m) => m.id !== message.id)] };
    newest = next;
    return next;
  });
  const found = touchConversation(queryClient, id, message.created_at);
  if (found && newest) {
    const key = keys.messages.preview(id, found.last_active_at, inbox ? message.id : null);
    if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, newest);
  }
  if (!found) void queryClient.invalidateQueries({ queryKey: keys.conversations.lists() });
  // Open, it is read as it arrives: retrieving the conversation marks it so (as its poll did).
  // useOpenConversation may have asked already, on seeing the newest page change: one will do.
  if (message.contact.username !== me) {
    void queryClient.refetchQueries(
      { queryKey: keys.conversations.detail(id), exact: true, type: "active" },
      { cancelRefetch: false },
    );
  }
}

/**
 * The conversation's activity moved on: set in the open one and each list (on top). Returns it
 * as a list has it, or undefined when no loaded list has it.
 */
function touchConversation(
  queryClient: QueryClient,
  id: string,
  at: number | null,
): Conversation | undefined {
  let found: Conversation | undefined;
  const touch = (c: Conversation): Conversation => {
    const last = Math.max(c.last_active_at ?? 0, at ?? 0) || null;
    return last === c.last_active_at ? c : { ...c, last_active_at: last };
  };
  queryClient.setQueryData<Conversation>(keys.conversations.detail(id), (c) => c && touch(c));
  queryClient.setQueriesData<ConversationPages>(
    { queryKey: keys.conversations.lists() },
    (data) => {
      const at = indexIn(data, id);
      if (!data || !at) return data;
      const moved = touch(data.pages[at.page]!.data[at.index]!);
      found = moved;
      const pages = data.pages.map((page) => ({
        ...page,
        data: page.data.filter((c) => c.id !== id),
      }));
      pages[0] = { ...pages[0]!, data: [moved, ...pages[0]!.data] };
      return { ...data, pages };
    },
  );
  return found;
}

function messageUpdated(queryClient: QueryClient, message: Message): void {
  const swap = (m: Message) => (m.id === message.id ? message : m);
  updateConversationMessages(queryClient, message.conversation_id, (data) =>
    mapMessages(data, swap),
  );
  queryClient.setQueryData<Message[]>(keys.messages.inbox(), (inbox) => inbox?.map(swap));
  queryClient.setQueriesData<Page<Message>>(
    { queryKey: keys.messages.previews(message.conversation_id) },
    (page) => page && { ...page, data: page.data.map(swap) },
  );
  queryClient.setQueryData<Message>(keys.messages.detail(message.id), (m) => m && message);
}

function messageDeleted(queryClient: QueryClient, { id, conversation_id }: Removed): void {
  const drop = (m: Message) => m.id !== id;
  updateConversationMessages(queryClient, conversation_id, (data) =>
    mapMessages(data, (m) => (drop(m) ? m : null)),
  );
  queryClient.setQueryData<Message[]>(keys.messages.inbox(), (inbox) => inbox?.filter(drop));
  queryClient.setQueriesData<Page<Message>>(
    { queryKey: keys.messages.previews(conversation_id) },
    (page) => page && { ...page, data: page.data.filter(drop) },
  );
  queryClient.removeQueries({ queryKey: keys.messages.detail(id), exact: true });
}

/** A conversation as it is now: in its place in every list it belongs to, out of the others. */
function conversationChanged(queryClient: QueryClient, conversation: Conversation): void {
  const { id } = conversation;
  queryClient.setQueryData<Conversation>(keys.conversations.detail(id), (c) => c && conversation);
  let unplaced = false;
  for (const [key, data] of queryClient.getQueriesData<ConversationPages>({
    queryKey: keys.conversations.lists(),
  })) {
    if (!data) continue;
    const params = key[key.length - 1] as ListConversationsParams;
    const belongs = fits(params, conversation);
    const next = indexIn(data, id)
      ? mapConversations(data, (c) => (c.id !== id ? c : belongs ? conversation : null))
      : belongs
        ? insertByActivity(data, conversation)
        : data;
    if (next === undefined) unplaced = true;
    else if (next !== data) queryClient.setQueryData(key, next);
  }
  if (unplaced) void queryClient.invalidateQueries({ queryKey: keys.conversations.lists() });
  void queryClient.invalidateQueries({ queryKey: keys.conversations.mutedIds(), exact: true });
}

function conversationDeleted(queryClient: QueryClient, { id }: Removed): void {
  queryClient.setQueriesData<ConversationPages>({ queryKey: keys.conversations.lists() }, (data) =>
    mapConversations(data, (c) => (c.id === id ? null : c)),
  );
  void queryClient.invalidateQueries({ queryKey: keys.conversations.detail(id), exact: true });
}

/** Whether a list asked for with `params` has the conversation (conversations.ts FILTERS). */
function fits(params: ListConversationsParams, c: Conversation): boolean {
  return (
    (params.pinned === undefined || c.is_pinned === params.pinned) &&
    (params.muted === undefined || c.is_muted === params.muted) &&
    (params.archived === undefined || (c.archived_at !== null) === params.archived)
  );
}

const activity = (c: Conversation) => c.last_active_at ?? c.created_at ?? 0;

/**
 * The list with `c` where the server would have it (newest activity first), or undefined when
 * that is past the loaded pages and more are left to load.
 */
function insertByActivity(data: ConversationPages, c: Conversation): ConversationPages | undefined {
  for (let p = 0; p < data.pages.length; p++) {
    const page = data.pages[p]!;
    const at = page.data.findIndex((other) => activity(other) <= activity(c));
    if (at === -1) continue;
    const pages = [...data.pages];
    pages[p] = { ...page, data: [...page.data.slice(0, at), c, ...page.data.slice(at)] };
    return { ...data, pages };
  }
  const last = data.pages[data.pages.length - 1];
  if (last?.has_more) return undefined;
  const pages = [...data.pages];
  const end = pages.length - 1;
  if (end < 0) return { ...data, pages: [{ has_more: false, data: [c] }] };
  pages[end] = { ...last!, data: [...last!.data, c] };
  return { ...data, pages };
}

function indexIn(
  data: ConversationPages | undefined,
  id: string,
): { page: number; index: number } | undefined {
  for (let page = 0; page < (data?.pages.length ?? 0); page++) {
    const index = data!.pages[page]!.data.findIndex((c) => c.id === id);
    if (index !== -1) return { page, index };
  }
  return undefined;
}
