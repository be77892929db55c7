// News from the server's event stream, written into the query cache a batch at a time
// (cache-writes.ts: one write per query the batch touches, however many events it holds):
// the open history (and its polled newest page), the inbox that rings and notifies, the
// sidebar's rows, previews and unread counts, the open conversation and a pinned message,
// and who has read what. The outbox's changes are laid over all of it when read, as over
// polled data. Where an event cannot be placed (a row beyond the loaded pages), the lists
// on screen are fetched again, once for the batch.
import { hashKey, type QueryClient, type QueryKey } from "@tanstack/react-query";
import type { ReadMark, Removed, ServerEvent } from "../../api/events.ts";
import type { Conversation, ListConversationsParams, Message, Page } from "../../api/schema.ts";
import {
  type ConversationPages,
  fits,
  insertByActivity,
  type MessagePages,
  mapConversations,
  mapMessages,
  prependMessage,
} from "./cache.ts";
import { type CacheWrites, draftWrites } from "./cache-writes.ts";
import { updateConversationMessages } from "./history.ts";
import { keys } from "./query-keys.ts";
import { markReadSoon } from "./read-marks.ts";
import { throttlePerClient } from "./throttle.ts";

/** As many messages as the inbox's page holds (previews.ts). */
const INBOX_KEPT = 20;

/**
 * The newest page of the open conversation holds at most this many messages (a burst
 * prepends to it): as many as the history's window of pages (cache.ts HISTORY_PAGES_KEPT).
 */
const LATEST_KEPT = 600;
/** A row's preview page holds at most this many (its unread count then reads 500+). */
const PREVIEW_KEPT = 500;

/**
 * The page with `message` on top (once), cut to `kept` messages. A page this batch made
 * (`owned`) is changed in place: it reaches the cache only when the batch is written, and
 * a burst would otherwise copy a page of hundreds once per message.
 */
function withOnTop(
  owned: WeakSet<object>,
  page: Page<Message>,
  message: Message,
  kept: number,
): Page<Message> {
  if (owned.has(page)) {
    if (onTopOf(page.data, message, kept)) page.has_more = true;
    return page;
  }
  const data = page.data.slice();
  const cut = onTopOf(data, message, kept);
  const next = { ...page, has_more: page.has_more || cut, data };
  owned.add(next);
  return next;
}

/**
 * The ids in each list a batch changes in place, kept with it: a burst puts a hundred
 * messages or more on top of a page of 600 per batch, and looking each one up along the
 * page was a tenth of the batch's time (a CPU profile of the burst bench).
 */
const idsIn = new WeakMap<Message[], Set<string>>();

function idsOf(list: Message[]): Set<string> {
  let ids = idsIn.get(list);
  if (!ids) {
    ids = new Set(list.map((m) => m.id));
    idsIn.set(list, ids);
  }
  return ids;
}

/** Puts `message` first in `list` (once), in place; true if that cut `list` to `kept`. */
function onTopOf(list: Message[], message: Message, kept: number): boolean {
  const ids = idsOf(list);
  if (ids.has(message.id))
    list.splice(
      list.findIndex((m) => m.id === message.id),
      1,
    );
  list.unshift(message);
  ids.add(message.id);
  if (list.length <= kept) return false;
  for (let i = kept; i < list.length; i++) ids.delete(list[i]!.id);
  list.length = kept;
  return true;
}

/** The conversation's preview most lately written, whatever its key. */
function newestPreview(
  queryClient: QueryClient,
  writes: CacheWrites,
  id: string,
): Page<Message> | undefined {
  let newest: { at: number; page: Page<Message> } | undefined;
  for (const query of queryClient
    .getQueryCache()
    .findAll({ queryKey: keys.messages.previews(id) })) {
    const page = writes.get<Page<Message>>(query.queryKey);
    if (page && (!newest || query.state.dataUpdatedAt >= newest.at)) {
      newest = { at: query.state.dataUpdatedAt, page };
    }
  }
  return newest?.page;
}
/** A `reset` refetches everything: at most one in this long, however many come. */
const RESET_GAP_MS = 5000;

/** A batch's writes, and what it does once they are in the cache (each kind once). */
type Batch = {
  writes: CacheWrites;
  queryClient: QueryClient;
  me: string | undefined;
  /** Runs `action` after the batch is written; a later one under the same name replaces it. */
  after(name: string, action: () => void): void;
  /** Each conversation's row preview as the batch leaves it, written at its end. */
  previews: Map<string, { key: QueryKey; page: Page<Message> }>;
  /** Pages and lists this batch made, not yet in the cache: changed in place. */
  owned: WeakSet<object>;
};

/** Puts a batch of events into the cache, in order. `me` is who this client is, when known. */
export function applyEvents(
  queryClient: QueryClient,
  events: readonly ServerEvent[],
  me?: string,
): void {
  const actions = new Map<string, () => void>();
  write(queryClient, events, me, (name, action) => {
    actions.delete(name);
    actions.set(name, action);
  });
  for (const action of actions.values()) action();
  applyAgainAfterFetches(queryClient, events, me);
}

/** One event: a batch of one. */
export function applyEvent(queryClient: QueryClient, event: ServerEvent, me?: string): void {
  applyEvents(queryClient, [event], me);
}

/** The events' changes to the cache's data, written once per query (`only`: one query's). */
function write(
  queryClient: QueryClient,
  events: readonly ServerEvent[],
  me: string | undefined,
  after: Batch["after"],
  only?: string,
): void {
  const writes = draftWrites(queryClient);
  const batch: Batch = {
    writes,
    queryClient,
    me,
    after,
    previews: new Map(),
    owned: new WeakSet(),
  };
  for (const event of events) applyToCache(batch, event);
  for (const [id, { key, page }] of batch.previews) {
    writes.set(key, () => page);
    const keep = hashKey(key);
    after(`previews ${id}`, () =>
      queryClient.removeQueries({
        queryKey: keys.messages.previews(id),
        type: "inactive",
        predicate: (query) => query.queryHash !== keep,
      }),
    );
  }
  writes.commit(only);
}

/**
 * A fetch on its way when the events came may have read the server before the changes,
 * and its answer, landing after, would put back what they replaced. The events are put
 * into that query again once it lands: no request for it. (Fetching it again instead
 * made storms: retrieving the open conversation makes an event about it, which asked for
 * it again, and during a burst every batch restarted every fetch on its way.) The events
 * are applied in order and each carries the resource as it then was, so what a later
 * change did comes with its own event.
 */
function applyAgainAfterFetches(
  queryClient: QueryClient,
  events: readonly ServerEvent[],
  me: string | undefined,
): void {
  const cache = queryClient.getQueryCache();
  for (const query of cache.findAll({ queryKey: keys.root, fetchStatus: "fetching" })) {
    const again = () => {
      if (cache.get(query.queryHash) !== query || query.state.status !== "success") return;
      write(queryClient, events, me, () => {}, query.queryHash);
    };
    void (query.promise ?? Promise.resolve()).then(again, again);
  }
}

const resetThrottle = throttlePerClient(RESET_GAP_MS);

/** Everything shown is fetched again; a flood of resets makes one refetch per RESET_GAP_MS. */
function refetchEverything(queryClient: QueryClient): void {
  resetThrottle(
    queryClient,
    "reset",
    () => void queryClient.invalidateQueries({ queryKey: keys.root }),
  );
}

function applyToCache(batch: Batch, event: ServerEvent): void {
  switch (event.type) {
    case "message.created":
      messageCreated(batch, event.message);
      break;
    case "message.updated":
      messageUpdated(batch.writes, event.message);
      break;
    case "message.deleted":
      messageDeleted(batch, event.removed);
      break;
    case "messages.read":
      messagesRead(batch.writes, event.read);
      break;
    case "conversation.created":
    case "conversation.updated":
      conversationChanged(batch, event.conversation);
      break;
    case "conversation.deleted":
      conversationDeleted(batch, event.removed);
      break;
    case "reset":
      batch.after("reset", () => refetchEverything(batch.queryClient));
      break;
  }
}

function messageCreated(batch: Batch, message: Message): void {
  const { writes, queryClient, owned } = batch;
  const id = message.conversation_id;
  // Into the newest page, which the screen merges with the loaded history; into the history
  // itself only when there is no newest page.
  const latest = writes.get<Page<Message>>(keys.messages.latest(id));
  if (latest) {
    writes.set(keys.messages.latest(id), () => withOnTop(owned, latest, message, LATEST_KEPT));
  } else {
    writes.set<MessagePages>(
      keys.messages.list(id),
      (data) => data && prependMessage(data, message),
    );
  }
  writes.set<Message[]>(keys.messages.inbox(), (inbox) => {
    if (!inbox) return inbox;
    const list = owned.has(inbox) ? inbox : inbox.slice();
    owned.add(list);
    onTopOf(list, message, INBOX_KEPT);
    return list;
  });
  const inbox = writes.get(keys.messages.inbox()) !== undefined;
  const found = touchConversation(writes, id, message.created_at);
  // The row's preview under its new key (its activity and the inbox's newest message of
  // it, previews.ts), so it shows at once: the conversation's newest preview with the
  // message on top. Only the batch's last key is written (those of the messages before it
  // are never asked for), and older keys no row shows any more are dropped: each held a
  // page, and a burst made one per batch.
  if (found) {
    const key = keys.messages.preview(id, found.last_active_at, inbox ? message.id : null);
    const base = batch.previews.get(id)?.page ?? newestPreview(queryClient, writes, id);
    if (base) {
      const page = withOnTop(owned, writes.get<Page<Message>>(key) ?? base, message, PREVIEW_KEPT);
      batch.previews.set(id, { key, page });
    }
  }
  if (!found) batch.after("lists", () => refetchLists(queryClient));
  // Open, it is read as it arrives: retrieving the conversation marks it so (as its poll did).
  // useOpenConversation may have asked already, on seeing the newest page change: one will do.
  if (message.contact.username !== batch.me) {
    batch.after(`read ${id}`, () => markReadSoon(queryClient, id));
  }
}

const refetchLists = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: keys.conversations.lists() });

/**
 * The conversation's activity moved on: set in the open one and each list (on top). Returns it
 * as a list has it, or undefined when no loaded list has it.
 */
function touchConversation(
  writes: CacheWrites,
  id: string,
  at: number | null,
): Conversation | undefined {
  let found: Conversation | undefined;
  const touch = (c: Conversation): Conversation => {
    const last = Math.max(c.last_active_at ?? 0, at ?? 0) || null;
    return last === c.last_active_at ? c : { ...c, last_active_at: last };
  };
  writes.set<Conversation>(keys.conversations.detail(id), (c) => c && touch(c));
  writes.setAll<ConversationPages>(keys.conversations.lists(), (data) => {
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
  });
  return found;
}

function messageUpdated(writes: CacheWrites, message: Message): void {
  const swap = (m: Message) => (m.id === message.id ? message : m);
  changeMessages(writes, message.conversation_id, swap);
  writes.set<Message>(keys.messages.detail(message.id), (m) => m && message);
}

/** Each cached message of the conversation (history, newest page, inbox, previews) through `fn`. */
function changeMessages(writes: CacheWrites, conversationId: string, fn: (m: Message) => Message) {
  updateConversationMessages(writes, conversationId, (data) => mapMessages(data, fn));
  writes.set<Message[]>(keys.messages.inbox(), (inbox) => inbox?.map(fn));
}

/** Every message not `reader`'s that was unread is read since `read_at`. */
function messagesRead(writes: CacheWrites, { conversation_id, reader, read_at }: ReadMark): void {
  changeMessages(writes, conversation_id, (m) =>
    m.conversation_id === conversation_id && m.read_at === null && m.contact.username !== reader
      ? { ...m, read_at }
      : m,
  );
}

function messageDeleted(batch: Batch, { id, conversation_id }: Removed): void {
  const { writes, queryClient } = batch;
  const drop = (m: Message) => m.id !== id;
  updateConversationMessages(writes, conversation_id, (data) =>
    mapMessages(data, (m) => (drop(m) ? m : null)),
  );
  writes.set<Message[]>(keys.messages.inbox(), (inbox) => inbox?.filter(drop));
  batch.after(`gone ${id}`, () =>
    queryClient.removeQueries({ queryKey: keys.messages.detail(id), exact: true }),
  );
}

/** A conversation as it is now: in its place in every list it belongs to, out of the others. */
function conversationChanged(batch: Batch, conversation: Conversation): void {
  const { writes, queryClient } = batch;
  const { id } = conversation;
  writes.set<Conversation>(keys.conversations.detail(id), (c) => c && conversation);
  let unplaced = false;
  for (const [key, data] of writes.entries<ConversationPages>(keys.conversations.lists())) {
    if (!data) continue;
    const params = key[key.length - 1] as ListConversationsParams;
    const belongs = fits(params, conversation);
    const next = indexIn(data, id)
      ? mapConversations(data, (c) => (c.id !== id ? c : belongs ? conversation : null))
      : belongs
        ? insertByActivity(data, conversation)
        : data;
    if (next === undefined) unplaced = true;
    else if (next !== data) writes.set(key, () => next);
  }
  if (unplaced) batch.after("lists", () => refetchLists(queryClient));
  batch.after("muted", () =>
    queryClient.invalidateQueries({ queryKey: keys.conversations.mutedIds(), exact: true }),
  );
}

function conversationDeleted(batch: Batch, { id }: Removed): void {
  batch.writes.setAll<ConversationPages>(keys.conversations.lists(), (data) =>
    mapConversations(data, (c) => (c.id === id ? null : c)),
  );
  batch.after(`gone ${id}`, () =>
    batch.queryClient.invalidateQueries({ queryKey: keys.conversations.detail(id), exact: true }),
  );
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
