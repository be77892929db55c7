// Pure functions over the query cache's shapes: merging a polled newest page into
// a loaded history, and the small edits that put the server's answer to a change into
// the cache. Kept free of React so they are tested directly.
import type { InfiniteData } from "@tanstack/react-query";
import type { Conversation, ListConversationsParams, Message, Page } from "../../api/schema.ts";

export type MessagePages = InfiniteData<Page<Message>, unknown>;
export type ConversationPages = InfiniteData<Page<Conversation>, unknown>;

/**
 * Pages of history kept at most (600 messages): more than the unread walk loads
 * (use-pane-jumps.ts) and many screens either side of the view (history.ts).
 */
export const HISTORY_PAGES_KEPT = 12;

/**
 * Where a history page starts: after a message (an older page: the message's id, as pages
 * were always asked for), or before one (a newer page, asked for when the view comes back
 * down after the newest pages were dropped), or nowhere (the newest page).
 */
export type HistoryCursor = string | { newerThan: string } | undefined;

export const isNewerCursor = (cursor: unknown): cursor is { newerThan: string } =>
  typeof cursor === "object" &&
  cursor !== null &&
  typeof (cursor as { newerThan?: unknown }).newerThan === "string";

/**
 * Whether the loaded pages reach the newest message: the first was asked for without a
 * cursor (the newest page), or asked for as newer and came back saying nothing is newer.
 * Not so once older pages pushed the newest out of the kept window (`maxPages`).
 */
export function reachesNewest(data: Pick<MessagePages, "pages" | "pageParams"> | undefined) {
  if (!data || data.pages.length === 0) return true;
  const first = data.pageParams[0];
  return first === undefined || (isNewerCursor(first) && !data.pages[0]!.has_more);
}

/** The newest loaded message's id: the cursor for the page after it (newer). */
export function newestId(pages: Page<Message>[]): string | undefined {
  for (const page of pages) {
    if (page.data.length > 0) return page.data[0]?.id;
  }
  return undefined;
}

/** The oldest loaded message's id: the cursor for the next (older) page. */
export function oldestId(pages: Page<Message>[]): string | undefined {
  for (let p = pages.length - 1; p >= 0; p--) {
    const data = pages[p]?.data;
    if (data && data.length > 0) return data[data.length - 1]?.id;
  }
  return undefined;
}

/**
 * Merges the polled newest page into the loaded history. Everything the newest page
 * covers (from its oldest message up) is replaced by it, so new, edited and deleted
 * messages all show; older loaded pages are kept, so scrolling back is not lost.
 */
export function mergeLatest(data: MessagePages | undefined, latest: Page<Message>): MessagePages {
  if (!data || data.pages.length === 0 || !latest.has_more) {
    return { pages: [latest], pageParams: [undefined] };
  }
  const boundary = latest.data[latest.data.length - 1];
  if (!boundary) return data;
  // No overlap means more arrived than one page holds: the gap cannot be stitched.
  if (!overlaps(data, latest)) return { pages: [latest], pageParams: [undefined] };
  const covered = new Set(latest.data.map((m) => m.id));
  const [first, ...rest] = data.pages.map((page) => ({
    ...page,
    data: page.data.filter((m) => !covered.has(m.id) && m.created_at <= boundary.created_at),
  }));
  // Page boundaries only matter for the cursor of the next older page, which is taken
  // from the oldest loaded message, so the newest page may grow without re-chunking.
  return {
    pages: [{ ...first!, data: [...latest.data, ...first!.data] }, ...rest],
    pageParams: data.pageParams,
  };
}

/** Whether the newest page meets the loaded history (always, unless it is not all there is). */
export function overlaps(data: MessagePages, latest: Page<Message>): boolean {
  if (!latest.has_more || data.pages.length === 0) return true;
  const covered = new Set(latest.data.map((m) => m.id));
  return data.pages.some((page) => page.data.some((m) => covered.has(m.id)));
}

/** All loaded messages, oldest first, without duplicates (pages can overlap after merges). */
export function chronological(data: MessagePages | undefined): Message[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: Message[] = [];
  for (const page of data.pages) {
    for (const m of page.data) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
  }
  return out.reverse();
}

/** Every item of every loaded page through `fn`; null drops the item. */
function mapPages<T>(
  data: InfiniteData<Page<T>, unknown> | undefined,
  fn: (item: T) => T | null,
): InfiniteData<Page<T>, unknown> | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      data: page.data.flatMap((item) => {
        const next = fn(item);
        return next ? [next] : [];
      }),
    })),
  };
}

export const mapMessages: (
  data: MessagePages | undefined,
  fn: (m: Message) => Message | null,
) => MessagePages | undefined = mapPages;

export function prependMessage(data: MessagePages | undefined, message: Message): MessagePages {
  if (!data || data.pages.length === 0) {
    return { pages: [{ has_more: false, data: [message] }], pageParams: [undefined] };
  }
  if (data.pages.some((p) => p.data.some((m) => m.id === message.id))) {
    return mapMessages(data, (m) => (m.id === message.id ? message : m))!;
  }
  // A window scrolled far back: the message is not next to its pages; it is fetched with
  // the newer pages when the view comes back down.
  if (!reachesNewest(data)) return data;
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first!, data: [message, ...first!.data] }, ...rest] };
}

export const mapConversations: (
  data: ConversationPages | undefined,
  fn: (c: Conversation) => Conversation | null,
) => ConversationPages | undefined = mapPages;

/** Whether a list asked for with `params` has the conversation (conversations.ts FILTERS). */
export function fits(params: ListConversationsParams, c: Conversation): boolean {
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
export function insertByActivity(
  data: ConversationPages,
  c: Conversation,
): ConversationPages | undefined {
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
