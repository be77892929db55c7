// What of the query cache is kept between runs, and what the client learns again from it
// when it is restored (the names of contacts, which it otherwise learns from fetches).
import {
  type DehydratedState,
  hashKey,
  matchQuery,
  type Query,
  type QueryClient,
} from "@tanstack/react-query";
import type { Message, Page } from "../../api/schema.ts";
import type { Session } from "../screen/session.ts";
import { HISTORY_PAGES_KEPT, type MessagePages, reachesNewest } from "./cache.ts";
import { keys } from "./query-keys.ts";

const notKept = new Set([keys.messages.inbox(), keys.conversations.mutedIds()].map(hashKey));

/**
 * Lists, conversations, histories and previews that loaded, including those whose last
 * refresh failed (offline, they still show what they last held, and that is what the next
 * start must show). Not the inbox: restored, it would count as already seen what arrived
 * while parley was closed, or ring for it all at once; it is fetched fresh and its first
 * answer is history.
 */
export function shouldKeepQuery(query: Query): boolean {
  return query.state.data !== undefined && !notKept.has(query.queryHash) && !isWindowFarBack(query);
}

/**
 * A history whose window of pages was read far back (queries/history.ts): not kept, as
 * the next start opens at the newest messages, and fetches them.
 */
function isWindowFarBack(query: Query): boolean {
  return (
    matchQuery({ queryKey: keys.messages.lists() }, query) &&
    !reachesNewest(query.state.data as MessagePages)
  );
}

/**
 * The kept queries as what they are at the next start: the last-known data. A refresh
 * that failed is not kept as an error (restored, the data would come back as a failure).
 */
export function asLastKnown(state: DehydratedState): DehydratedState {
  return {
    ...state,
    queries: state.queries.map((query) =>
      query.state.status === "error"
        ? { ...query, state: { ...query.state, status: "success", error: null } }
        : query,
    ),
  };
}

/**
 * The newest kept preview of a conversation, whatever else its key held: a row's preview is
 * keyed by the newest message the inbox has seen, and the inbox is not kept, so a start
 * asks under another key (and, offline, gets nothing).
 */
export function lastKnownPreview<T>(
  queryClient: QueryClient,
  conversationId: string,
  lastActiveAt: number | null,
): T | undefined {
  let best: Query | undefined;
  for (const query of queryClient
    .getQueryCache()
    .findAll({ queryKey: keys.messages.preview(conversationId, lastActiveAt) })) {
    if (query.state.data === undefined) continue;
    if (!best || query.state.dataUpdatedAt > best.state.dataUpdatedAt) best = query;
  }
  return best?.state.data as T | undefined;
}

function messagesIn(data: unknown): Message[] {
  if (typeof data !== "object" || data === null) return [];
  if ("pages" in data && Array.isArray(data.pages)) return data.pages.flatMap(messagesIn);
  if ("data" in data && Array.isArray(data.data)) {
    return (data as Page<Message>).data.filter((m) => typeof m === "object" && m && "contact" in m);
  }
  return [];
}

/**
 * A history kept by a parley that kept every page it loaded: cut to the newest pages of
 * the window (queries/history.ts), which TanStack's `maxPages` only keeps from growing.
 */
export function trimRestoredHistories(queryClient: QueryClient): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: keys.messages.lists() })) {
    const data = query.state.data as MessagePages | undefined;
    if (!data || data.pages.length <= HISTORY_PAGES_KEPT) continue;
    queryClient.setQueryData(
      query.queryKey,
      {
        pages: data.pages.slice(0, HISTORY_PAGES_KEPT),
        pageParams: data.pageParams.slice(0, HISTORY_PAGES_KEPT),
      },
      { updatedAt: query.state.dataUpdatedAt },
    );
  }
}

/** Learns the contacts of every restored message, so names show before the first fetch. */
export function learnFromCache(queryClient: QueryClient, session: Session): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: keys.messages.all() })) {
    session.contacts.learn(messagesIn(query.state.data));
  }
}
