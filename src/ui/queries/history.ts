// The history of the open conversation: the pages loaded so far (infinite, newest page
// first) and the polled newest page. The two are merged when read, never written back
// into each other: TanStack stores a fetched page on top of the pages as they were when
// it was asked for, so a merge written into the cache while an older page was on its way
// was lost. Changes still in the outbox are laid over both. Also the pinned message.
//
// Only a window of pages is kept (`maxPages`): scrolled far back, the newest pages are
// dropped as older ones come, and fetched again (as newer pages) on the way back down. A
// history read to its first message holds a few hundred messages, not all of them.
import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { nextCursor } from "../../api/paging.ts";
import type { Message, Page } from "../../api/schema.ts";
import type { Session } from "../screen/session.ts";
import { useSession } from "../screen/session-context.tsx";
import {
  chronological,
  HISTORY_PAGES_KEPT,
  type HistoryCursor,
  isNewerCursor,
  type MessagePages,
  mergeLatest,
  newestId,
  oldestId,
  overlaps,
  reachesNewest,
} from "./cache.ts";
import type { CacheWrites } from "./cache-writes.ts";
import { changedMessages } from "./changes.ts";
import { usePoll, usePollPace } from "./polling.ts";
import { keys } from "./query-keys.ts";
import { useQueuedChanges } from "./use-outbox.ts";

const HISTORY_PAGE = 50;
const LATEST_PAGE = 20;

export function historyOptions(session: Session, conversationId: string) {
  return infiniteQueryOptions({
    queryKey: keys.messages.list(conversationId),
    queryFn: async ({ pageParam }) => {
      const page = await session.api.messages.list({
        conversation_id: conversationId,
        limit: HISTORY_PAGE,
        ...(isNewerCursor(pageParam)
          ? { ending_before: pageParam.newerThan }
          : pageParam
            ? { starting_after: pageParam }
            : {}),
      });
      session.contacts.learn(page.data);
      return page;
    },
    initialPageParam: undefined as HistoryCursor,
    getNextPageParam: (last, all, _param, asked): HistoryCursor => {
      const oldest = oldestId(all);
      return nextCursor(last, oldest === undefined ? undefined : { id: oldest }, asked);
    },
    // Newer pages exist only once the newest were dropped: see HISTORY_PAGES_KEPT.
    getPreviousPageParam: (_first, all, _param, asked): HistoryCursor => {
      if (reachesNewest({ pages: all, pageParams: asked })) return undefined;
      const newest = newestId(all);
      // Asked for already: a server that ignores the cursor is not asked again and again.
      if (newest === undefined || asked.some((p) => isNewerCursor(p) && p.newerThan === newest)) {
        return undefined;
      }
      return { newerThan: newest };
    },
    maxPages: HISTORY_PAGES_KEPT,
    // History is kept fresh by the poll of the newest page, not by refetching every page.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function latestOptions(session: Session, conversationId: string) {
  return queryOptions({
    queryKey: keys.messages.latest(conversationId),
    queryFn: async () => {
      const page = await session.api.messages.list({
        conversation_id: conversationId,
        limit: LATEST_PAGE,
      });
      session.contacts.learn(page.data);
      return page;
    },
  });
}

export function useMessages(conversationId: string | undefined) {
  const session = useSession();
  const queryClient = useQueryClient();
  const pace = usePollPace();
  const id = conversationId ?? "";
  const enabled = conversationId !== undefined;
  const history = useInfiniteQuery({ ...historyOptions(session, id), enabled });
  const latest = useQuery({ ...latestOptions(session, id), enabled: enabled && history.isSuccess });
  usePoll(keys.messages.latest(id), pace.openMs, enabled && history.isSuccess, {
    quietMs: 2 * pace.openMs,
  });

  // A conversation opened again after it was read far back opens at its newest messages.
  useEffect(() => {
    if (enabled) void showNewest(queryClient, id);
  }, [enabled, queryClient, id]);

  // The polled newest page joins the history only where the history reaches the newest.
  const atNewest = reachesNewest(history.data);
  // More news than one page holds arrived between two polls: the loaded pages and the
  // newest page no longer meet, so the history starts again from the newest page.
  const gap = Boolean(
    atNewest && history.data && latest.data && !overlaps(history.data, latest.data),
  );
  useEffect(() => {
    if (gap) void queryClient.resetQueries({ queryKey: keys.messages.list(id), exact: true });
  }, [gap, queryClient, id]);

  const changes = useQueuedChanges();
  const messages = useMemo(
    () =>
      changedMessages(
        chronological(
          latest.data && atNewest ? mergeLatest(history.data, latest.data) : history.data,
        ),
        changes,
      ),
    [history.data, latest.data, atNewest, changes],
  );
  // One page at a time, either way: TanStack would cancel one direction's fetch for the
  // other. Asked of the cache, not of this render: two effects of one render may both ask.
  // (A refetch of the pages is no reason to wait: a page asked for replaces it.)
  const fetching = () => {
    const state = queryClient.getQueryState(keys.messages.list(id));
    return state?.fetchStatus === "fetching" && state.fetchMeta?.fetchMore !== undefined;
  };
  return {
    messages,
    isLoading: history.isLoading,
    error: history.error ?? latest.error,
    hasOlder: Boolean(history.hasNextPage),
    isLoadingOlder: history.isFetchingNextPage,
    loadOlder: () => {
      if (history.hasNextPage && !fetching()) void history.fetchNextPage();
    },
    /** The newest pages were dropped (the view is far back): they come back with loadNewer. */
    hasNewer: !atNewest,
    isLoadingNewer: history.isFetchingPreviousPage,
    loadNewer: () => {
      if (history.hasPreviousPage && !fetching()) void history.fetchPreviousPage();
    },
    /** Back to the newest messages at once, from far back: the newest page, kept or fetched. */
    toNewest: () => void showNewest(queryClient, id),
  };
}

/**
 * The history as its newest page only (the polled one when there is one, else fetched
 * again): for G or a send while the view is far back, rather than every page between.
 */
async function showNewest(queryClient: QueryClient, conversationId: string): Promise<void> {
  const list = keys.messages.list(conversationId);
  if (reachesNewest(queryClient.getQueryData<MessagePages>(list))) return;
  // A page on its way would otherwise land on top of what is set here.
  await queryClient.cancelQueries({ queryKey: list, exact: true });
  const newest = queryClient.getQueryData<Page<Message>>(keys.messages.latest(conversationId));
  if (newest) {
    queryClient.setQueryData<MessagePages>(list, { pages: [newest], pageParams: [undefined] });
  } else {
    await queryClient.resetQueries({ queryKey: list, exact: true });
  }
}

/** The conversation's pinned message: from the loaded history, else fetched on its own. */
export function usePinnedMessage(
  pinnedId: string | null | undefined,
  loaded: readonly Message[],
): Message | null | undefined {
  const { api } = useSession();
  const inHistory = pinnedId ? loaded.find((m) => m.id === pinnedId) : undefined;
  const { data } = useQuery({
    queryKey: keys.messages.detail(pinnedId ?? ""),
    queryFn: () => api.messages.get(pinnedId!),
    enabled: Boolean(pinnedId) && !inHistory,
    staleTime: 30_000,
  });
  if (!pinnedId) return null;
  return inHistory ?? data;
}

/**
 * Changes the messages of one conversation wherever they are cached: the loaded pages and
 * the polled newest page (the screen shows the two merged, so both must change).
 */
export function updateConversationMessages(
  writes: CacheWrites,
  conversationId: string,
  update: (data: MessagePages | undefined) => MessagePages | undefined,
): void {
  writes.set<MessagePages>(keys.messages.list(conversationId), update);
  const patchPage = (page: Page<Message> | undefined) =>
    page ? update({ pages: [page], pageParams: [undefined] })?.pages[0] : page;
  writes.set<Page<Message>>(keys.messages.latest(conversationId), patchPage);
  // The sidebar row's preview too: an edit changes neither the activity nor the newest
  // message its key is made of, so it would never be fetched again.
  writes.setAll<Page<Message>>(keys.messages.previews(conversationId), patchPage);
}
