// Conversation lists (per filter), one conversation, and the mutations on them.
// Every mutation is optimistic: the cache changes at once, a failure restores the
// snapshot and says why in the status bar, and the lists are refetched afterwards.
import {
  type QueryClient,
  type QueryKey,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useCallback, useEffect, useMemo } from "react";
import type {
  Conversation,
  CreateConversationParams,
  ListConversationsParams,
  UpdateConversationParams,
} from "../../api/schema.ts";
import { useApi, useStatusLine } from "../session.tsx";
import { type ConversationPages, mapConversations } from "./cache.ts";
import { pollInterval } from "./polling.ts";
import { keys } from "./queryKeys.ts";

export type Filter = "all" | "pinned" | "muted" | "archived";
export const FILTERS: readonly Filter[] = ["all", "pinned", "muted", "archived"];

export const LIST_POLL_MS = 5000;
export const OPEN_POLL_MS = 2000;
const PAGE = 10;

/** Which conversations a filter shows; also applied on the client so optimistic moves show. */
export const inFilter: Record<Filter, (c: Conversation) => boolean> = {
  all: (c) => c.archived_at === null,
  pinned: (c) => c.is_pinned && c.archived_at === null,
  muted: (c) => c.is_muted && c.archived_at === null,
  archived: (c) => c.archived_at !== null,
};

// "All" is two lists so that pinned conversations come first however far down the
// activity order they are: every pinned one, then the rest page by page.
const PINNED_FIRST: ListConversationsParams = { pinned: true, archived: false, limit: PAGE };
const UNPINNED: ListConversationsParams = { pinned: false, archived: false, limit: PAGE };
const FILTER_PARAMS: Record<Exclude<Filter, "all">, ListConversationsParams> = {
  pinned: PINNED_FIRST,
  muted: { muted: true, archived: false, limit: PAGE },
  archived: { archived: true, limit: PAGE },
};

function useConversationPages(params: ListConversationsParams, enabled: boolean) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: keys.conversations.list(params),
    queryFn: ({ pageParam }) =>
      api.conversations.list({ ...params, ...(pageParam ? { starting_after: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data[last.data.length - 1]?.id : undefined),
    enabled,
    refetchInterval: enabled ? pollInterval(LIST_POLL_MS) : false,
  });
}

export type ConversationList = {
  conversations: Conversation[];
  isLoading: boolean;
  error: unknown;
  hasMore: boolean;
  loadMore: () => void;
};

export function useConversationList(filter: Filter, loadEverything = false): ConversationList {
  const isAll = filter === "all";
  const first = useConversationPages(isAll ? PINNED_FIRST : FILTER_PARAMS[filter], true);
  const rest = useConversationPages(UNPINNED, isAll);
  const { hasNextPage: pinnedMore, isFetchingNextPage: pinnedFetching, fetchNextPage } = first;
  useEffect(() => {
    // The pinned part of "All" is loaded whole; so is any list being searched.
    if ((isAll || loadEverything) && pinnedMore && !pinnedFetching) void fetchNextPage();
  }, [isAll, loadEverything, pinnedMore, pinnedFetching, fetchNextPage]);
  const tail = isAll ? rest : first;
  useEffect(() => {
    if (loadEverything && tail.hasNextPage && !tail.isFetchingNextPage) void tail.fetchNextPage();
  }, [loadEverything, tail]);
  const conversations = useMemo(() => {
    const seen = new Set<string>();
    const out: Conversation[] = [];
    const sources = isAll ? [first.data, rest.data] : [first.data];
    for (const data of sources) {
      for (const page of data?.pages ?? []) {
        for (const c of page.data) {
          if (seen.has(c.id) || !inFilter[filter](c)) continue;
          seen.add(c.id);
          out.push(c);
        }
      }
    }
    return out;
  }, [isAll, filter, first.data, rest.data]);
  return {
    conversations,
    isLoading: first.isLoading || (isAll && rest.isLoading),
    error: first.error ?? (isAll ? rest.error : null),
    hasMore: Boolean(tail.hasNextPage),
    loadMore: () => {
      if (tail.hasNextPage && !tail.isFetchingNextPage) void tail.fetchNextPage();
    },
  };
}

/**
 * The open conversation. Retrieving it marks it read on the server, so it is polled
 * while open: new messages from others are read as they arrive on screen.
 */
export function useOpenConversation(id: string | undefined) {
  const api = useApi();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: keys.conversations.detail(id ?? ""),
    queryFn: () => api.conversations.get(id!),
    enabled: id !== undefined,
    refetchInterval: id !== undefined ? pollInterval(OPEN_POLL_MS) : false,
  });
  useEffect(() => {
    if (query.data) replaceInLists(queryClient, query.data);
  }, [queryClient, query.data]);
  return query;
}

function replaceInLists(queryClient: QueryClient, conversation: Conversation): void {
  queryClient.setQueriesData<ConversationPages>({ queryKey: keys.conversations.lists() }, (data) =>
    mapConversations(data, (c) => (c.id === conversation.id ? conversation : c)),
  );
}

type Snapshot = [QueryKey, unknown][];

async function snapshotConversations(queryClient: QueryClient): Promise<Snapshot> {
  await queryClient.cancelQueries({ queryKey: keys.conversations.all() });
  return queryClient.getQueriesData({ queryKey: keys.conversations.all() });
}

function restore(queryClient: QueryClient, snapshot: Snapshot | undefined): void {
  for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
}

function patchConversation(
  queryClient: QueryClient,
  id: string,
  fn: (c: Conversation) => Conversation | null,
): void {
  queryClient.setQueriesData<ConversationPages>({ queryKey: keys.conversations.lists() }, (data) =>
    mapConversations(data, (c) => (c.id === id ? fn(c) : c)),
  );
  queryClient.setQueryData<Conversation>(keys.conversations.detail(id), (c) =>
    c ? (fn(c) ?? undefined) : c,
  );
}

/** What a change does, in words for the status bar: [to do, done]. */
function describeUpdate(params: UpdateConversationParams): [string, string] {
  if (params.is_pinned !== undefined)
    return params.is_pinned ? ["pin", "Pinned"] : ["unpin", "Unpinned"];
  if (params.is_muted !== undefined)
    return params.is_muted ? ["mute", "Muted"] : ["unmute", "Unmuted"];
  if (params.archived_at !== undefined)
    return params.archived_at === null ? ["restore", "Restored"] : ["archive", "Archived"];
  if (params.pinned_message_id !== undefined)
    return params.pinned_message_id === null
      ? ["unpin the message in", "Unpinned the message in"]
      : ["pin the message in", "Pinned the message in"];
  return ["update", "Updated"];
}

/**
 * Asks the server which conversations are muted now, so that a mute made elsewhere
 * (another device, another session) holds at once rather than at the next list poll.
 * Undefined when the server cannot say.
 */
export function useFetchMutedIds(): () => Promise<ReadonlySet<string> | undefined> {
  const api = useApi();
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient
        .fetchQuery({
          queryKey: keys.conversations.mutedIds(),
          queryFn: async () => {
            const ids = new Set<string>();
            for await (const page of api.conversations.pages({ muted: true, limit: 100 })) {
              for (const c of page.data) ids.add(c.id);
            }
            return ids;
          },
          staleTime: 0,
        })
        .catch(() => undefined),
    [api, queryClient],
  );
}

export function useUpdateConversation() {
  const api = useApi();
  const status = useStatusLine();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      params,
    }: {
      id: string;
      params: UpdateConversationParams;
      label?: string;
    }) => api.conversations.update(id, params),
    onMutate: async ({ id, params }) => {
      const snapshot = await snapshotConversations(queryClient);
      patchConversation(queryClient, id, (c) => ({ ...c, ...params }) as Conversation);
      return { snapshot };
    },
    onError: (error, { params, label }, context) => {
      restore(queryClient, context?.snapshot);
      status.error(`Could not ${describeUpdate(params)[0]} ${label ?? "the conversation"}`, error);
    },
    onSuccess: (conversation, { params, label }) => {
      patchConversation(queryClient, conversation.id, () => conversation);
      status.info(`${describeUpdate(params)[1]} ${label ?? "the conversation"}.`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.conversations.lists() }),
  });
}

export function useDeleteConversation() {
  const api = useApi();
  const status = useStatusLine();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; label?: string }) => api.conversations.delete(id),
    onMutate: async ({ id }) => {
      const snapshot = await snapshotConversations(queryClient);
      patchConversation(queryClient, id, () => null);
      return { snapshot };
    },
    onError: (error, { label }, context) => {
      restore(queryClient, context?.snapshot);
      status.error(`Could not delete ${label ?? "the conversation"}`, error);
    },
    onSuccess: (_result, { id, label }) => {
      queryClient.removeQueries({ queryKey: keys.conversations.detail(id) });
      queryClient.removeQueries({ queryKey: keys.messages.list(id) });
      status.info(`Deleted ${label ?? "the conversation"}.`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.conversations.lists() }),
  });
}

export function useCreateConversation() {
  const api = useApi();
  const status = useStatusLine();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: CreateConversationParams) => api.conversations.create(params),
    onSuccess: (conversation) => {
      queryClient.setQueryData(keys.conversations.detail(conversation.id), conversation);
      // Shown at once at the top of the unpinned list; the refetch puts it in its place.
      queryClient.setQueryData<ConversationPages>(keys.conversations.list(UNPINNED), (data) => {
        if (!data || data.pages.some((p) => p.data.some((c) => c.id === conversation.id)))
          return data;
        const [first, ...rest] = data.pages;
        return { ...data, pages: [{ ...first!, data: [conversation, ...first!.data] }, ...rest] };
      });
    },
    onError: (error) => status.error("Could not start the conversation", error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.conversations.lists() }),
  });
}
