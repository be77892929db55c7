// The history of the open conversation: the pages loaded so far (infinite, newest page
// first) and the polled newest page. The two are merged when read, never written back
// into each other: TanStack stores a fetched page on top of the pages as they were when
// it was asked for, so a merge written into the cache while an older page was on its way
// was lost. Changes still in the outbox are laid over both. Also the pinned message.
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
import { chronological, type MessagePages, mergeLatest, oldestId, overlaps } from "./cache.ts";
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
        ...(pageParam ? { starting_after: pageParam } : {}),
      });
      session.contacts.learn(page.data);
      return page;
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last, all, _param, asked) => {
      const oldest = oldestId(all);
      return nextCursor(last, oldest === undefined ? undefined : { id: oldest }, asked);
    },
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
  usePoll(
    keys.messages.latest(id),
    pace.openMs,
    enabled && history.isSuccess,
    true,
    2 * pace.openMs,
  );

  // More news than one page holds arrived between two polls: the loaded pages and the
  // newest page no longer meet, so the history starts again from the newest page.
  const gap = Boolean(history.data && latest.data && !overlaps(history.data, latest.data));
  useEffect(() => {
    if (gap) void queryClient.resetQueries({ queryKey: keys.messages.list(id), exact: true });
  }, [gap, queryClient, id]);

  const changes = useQueuedChanges();
  const messages = useMemo(
    () =>
      changedMessages(
        chronological(latest.data ? mergeLatest(history.data, latest.data) : history.data),
        changes,
      ),
    [history.data, latest.data, changes],
  );
  return {
    messages,
    isLoading: history.isLoading,
    error: history.error ?? latest.error,
    hasOlder: Boolean(history.hasNextPage),
    isLoadingOlder: history.isFetchingNextPage,
    loadOlder: () => {
      if (history.hasNextPage && !history.isFetchingNextPage) void history.fetchNextPage();
    },
  };
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
  queryClient: QueryClient,
  conversationId: string,
  update: (data: MessagePages | undefined) => MessagePages | undefined,
): void {
  queryClient.setQueryData<MessagePages>(keys.messages.list(conversationId), update);
  const patchPage = (page: Page<Message> | undefined) =>
    page ? update({ pages: [page], pageParams: [undefined] })?.pages[0] : page;
  queryClient.setQueryData<Page<Message>>(keys.messages.latest(conversationId), patchPage);
  // The sidebar row's preview too: an edit changes neither the activity nor the newest
  // message its key is made of, so it would never be fetched again.
  queryClient.setQueriesData<Page<Message>>(
    { queryKey: [...keys.messages.all(), "preview", conversationId] },
    patchPage,
  );
}
