// Conversation lists (per filter), one conversation, and starting a conversation. Changes
// to one (pin, mute, archive, delete) go through the outbox (outbox.ts): they show at once,
// laid over what the server last said, until the server has them. Starting a conversation
// is a plain mutation: it shows when the server answers, and a failure says why.
import {
  hashKey,
  infiniteQueryOptions,
  matchQuery,
  notifyManager,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import { nextCursor } from "../../api/paging.ts";
import type {
  Conversation,
  CreateConversationParams,
  ListConversationsParams,
  Message,
  Page,
} from "../../api/schema.ts";
import { useStore } from "../screen/observable.ts";
import type { Session } from "../screen/session.ts";
import { useApi, useSession, useStatusLine } from "../screen/session-context.tsx";
import { type ConversationPages, fits, insertByActivity, mapConversations } from "./cache.ts";
import { changedConversation } from "./changes.ts";
import { usePoll, usePollPace } from "./polling.ts";
import { keys } from "./query-keys.ts";
import { markReadSoon } from "./read-marks.ts";
import { shareById } from "./share-by-id.ts";
import { useQueuedChanges } from "./use-outbox.ts";

export type Filter = "all" | "pinned" | "muted" | "archived";
export const FILTERS: readonly Filter[] = ["all", "pinned", "muted", "archived"];

const PAGE = 10;

/** Which conversations a filter shows; also applied on the client so queued changes move rows at once. */
export const inFilter: Record<Filter, (c: Conversation) => boolean> = {
  all: (c) => c.archived_at === null,
  pinned: (c) => c.is_pinned && c.archived_at === null,
  muted: (c) => c.is_muted && c.archived_at === null,
  archived: (c) => c.archived_at !== null,
};

// "All" is two lists so that pinned conversations come first however far down the
// activity order they are: every pinned one, then the rest page by page.
export const PINNED_FIRST: ListConversationsParams = {
  pinned: true,
  archived: false,
  limit: PAGE,
};
export const UNPINNED: ListConversationsParams = { pinned: false, archived: false, limit: PAGE };
const FILTER_PARAMS: Record<Exclude<Filter, "all">, ListConversationsParams> = {
  pinned: PINNED_FIRST,
  muted: { muted: true, archived: false, limit: PAGE },
  archived: { archived: true, limit: PAGE },
};

export function conversationListOptions(session: Session, params: ListConversationsParams) {
  return infiniteQueryOptions({
    queryKey: keys.conversations.list(params),
    queryFn: ({ pageParam }) =>
      session.api.conversations.list({
        ...params,
        ...(pageParam ? { starting_after: pageParam } : {}),
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last, _all, _param, asked) => nextCursor(last, last.data.at(-1), asked),
    structuralSharing: (old: unknown, next: unknown) => {
      const held = new Map<string, Conversation>();
      mapConversations(old as ConversationPages | undefined, (c) => {
        held.set(c.id, c);
        return c;
      });
      const kept = mapConversations(next as ConversationPages, (c) => {
        const before = held.get(c.id);
        return before && onlyReopened(before, c) ? before : c;
      });
      return shareById(old, kept);
    },
  });
}

function useConversationPages(params: ListConversationsParams, enabled: boolean, poll = true) {
  const query = useInfiniteQuery({ ...conversationListOptions(useSession(), params), enabled });
  usePoll(keys.conversations.list(params), usePollPace().listMs, enabled && poll);
  return query;
}

/** Fetches the next page of a list until it has them all, while `enabled`. */
function useLoadAll(pages: ReturnType<typeof useConversationPages>, enabled: boolean): void {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (enabled && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [enabled, hasNextPage, isFetchingNextPage, fetchNextPage]);
}

export type ConversationList = {
  conversations: Conversation[];
  isLoading: boolean;
  error: unknown;
  hasMore: boolean;
  loadMore: () => void;
  /**
   * The filter's own list has no answer (the server is away, or it failed): its rows are
   * those of the lists the client holds, and "partial" when those may not have them all.
   */
  held?: "whole" | "partial";
};

/**
 * The conversations of several lists in order, each once, with the queued changes laid
 * over them, and only those `keep` wants (after the changes: a queued mute moves a row).
 */
function mergeLists(
  lists: readonly (ConversationPages | undefined)[],
  changes: Parameters<typeof changedConversation>[1],
  keep: (c: Conversation) => boolean = () => true,
): Conversation[] {
  const seen = new Set<string>();
  const out: Conversation[] = [];
  for (const data of lists) {
    for (const page of data?.pages ?? []) {
      for (const listed of page.data) {
        const c = changedConversation(listed, changes);
        if (!c || seen.has(c.id) || !keep(c)) continue;
        seen.add(c.id);
        out.push(c);
      }
    }
  }
  return out;
}

/**
 * `listed` with the conversations of `moved` it lacks, each in its place: pinned first,
 * then the most recently active.
 */
function withMoved(listed: Conversation[], moved: readonly Conversation[]): Conversation[] {
  const ids = new Set(listed.map((c) => c.id));
  const out = [...listed];
  for (const c of moved) {
    if (ids.has(c.id)) continue;
    const at = out.findIndex((other) => comesBefore(c, other));
    out.splice(at < 0 ? out.length : at, 0, c);
    ids.add(c.id);
  }
  return out;
}

/** Whether `c` is listed above `other`: pinned first, then the most recently active. */
const comesBefore = (c: Conversation, other: Conversation): boolean =>
  other.is_pinned !== c.is_pinned
    ? c.is_pinned
    : (other.last_active_at ?? 0) < (c.last_active_at ?? 0);

export function useConversationList(filter: Filter): ConversationList {
  const isAll = filter === "all";
  const first = useConversationPages(isAll ? PINNED_FIRST : FILTER_PARAMS[filter], true);
  const rest = useConversationPages(UNPINNED, isAll);
  // The pinned part of "All" is loaded whole.
  useLoadAll(first, isAll);
  const tail = isAll ? rest : first;
  const changes = useQueuedChanges();
  // Every list the client holds, read from the cache only (never fetched here).
  const pinned = useConversationPages(PINNED_FIRST, false, false);
  const muted = useConversationPages(FILTER_PARAMS.muted, false, false);
  const archived = useConversationPages(FILTER_PARAMS.archived, false, false);
  // A filter never loaded, with the server away or its list refused (an offline start
  // after an offline quit): its rows are those of the lists the client holds, rather than
  // "loading…" over conversations the person can see under All.
  const connection = useStore(useSession().status.connection).state;
  const held = !isAll && first.data === undefined && (connection !== "online" || !!first.error);
  // Muted and Pinned are parts of "All": whole when "All" is. Archived conversations are
  // not in "All": only those the client saw archived are held.
  const partial =
    filter === "archived" ||
    pinned.data === undefined ||
    rest.data === undefined ||
    pinned.hasNextPage ||
    rest.hasNextPage;
  // "All" is the pinned rows, then the rest: the rest waits for the pinned answer (or its
  // failure). Drawn first, its rows all moved down under the cursor when the pinned came,
  // and a key pressed on the first row landed on another.
  const pinnedPending = isAll && first.status === "pending";
  // A conversation restored from Archived (or archived from the others) is in the list it
  // moved to at once, from the cached list it left: the list it joins may not have it
  // before its next answer, and the selection, kept on it, would go to another row.
  const conversations = useMemo(() => {
    const own = isAll ? (pinnedPending ? [] : [first.data, rest.data]) : [first.data];
    const listed = mergeLists(
      held ? [pinned.data, rest.data, muted.data, archived.data] : own,
      changes,
      inFilter[filter],
    );
    const left = filter === "archived" ? [pinned.data, rest.data] : [archived.data];
    return withMoved(listed, mergeLists(left, changes, inFilter[filter]));
  }, [
    isAll,
    pinnedPending,
    held,
    filter,
    first.data,
    rest.data,
    pinned.data,
    muted.data,
    archived.data,
    changes,
  ]);
  const error = first.error ?? (isAll ? rest.error : null);
  return {
    conversations,
    isLoading: !held && (first.isLoading || (isAll && rest.isLoading)),
    // Rows held are shown rather than the failure (the status bar says it); with none, the
    // failure of a server that answers still shows.
    error: held && (conversations.length > 0 || connection !== "online") ? null : error,
    hasMore: !held && Boolean(tail.hasNextPage),
    loadMore: () => {
      if (tail.hasNextPage && !tail.isFetchingNextPage) void tail.fetchNextPage();
    },
    ...(held ? { held: partial ? "partial" : "whole" } : {}),
  };
}

/**
 * Every conversation whatever the filter (pinned, the rest, then the archived), each list
 * loaded whole, while `enabled`: what the conversation search looks through. Not polled
 * here: the lists are fetched when the search opens, and the one on screen keeps polling.
 */
export function useEveryConversation(enabled: boolean): ConversationList {
  const pinned = useConversationPages(PINNED_FIRST, enabled, false);
  const rest = useConversationPages(UNPINNED, enabled, false);
  const archived = useConversationPages(FILTER_PARAMS.archived, enabled, false);
  useLoadAll(pinned, enabled);
  useLoadAll(rest, enabled);
  useLoadAll(archived, enabled);
  const changes = useQueuedChanges();
  const conversations = useMemo(
    () => mergeLists([pinned.data, rest.data, archived.data], changes),
    [pinned.data, rest.data, archived.data, changes],
  );
  const all = [pinned, rest, archived];
  return {
    conversations,
    isLoading: all.some((q) => q.isLoading),
    error: all.find((q) => q.error)?.error ?? null,
    hasMore: all.some((q) => q.hasNextPage),
    loadMore: () => {},
  };
}

/**
 * Whether an answer to any conversation list is on its way (what is listed may be about
 * to change), followed only while `watching`. A list's own `isFetching`, read as it
 * renders, would draw the sidebar again twice at every poll of every list: 270 ms of CPU
 * a minute in an idle client polling a server without events (npm run bench).
 */
export function useListsFetching(watching: boolean): boolean {
  const queryClient = useQueryClient();
  // As TanStack's useIsFetching: the cache tells of a query added while another component
  // renders (a row's preview), and React refuses an update then; batchCalls defers it.
  const subscribe = useCallback(
    (notify: () => void) =>
      watching ? queryClient.getQueryCache().subscribe(notifyManager.batchCalls(notify)) : () => {},
    [queryClient, watching],
  );
  const fetching = () =>
    watching && queryClient.isFetching({ queryKey: keys.conversations.lists() }) > 0;
  return useSyncExternalStore(subscribe, fetching, fetching);
}

export function conversationOptions(session: Session, id: string) {
  return queryOptions({
    queryKey: keys.conversations.detail(id),
    queryFn: () => session.api.conversations.get(id),
    structuralSharing: keepWhenOnlyReopened,
  });
}

/**
 * Each retrieval marks the conversation opened, so every 2 s poll of the open one
 * brought a new `last_opened_at`, and that new object went into every list: the whole
 * screen rendered again, to draw the same frame. While nothing happened since it was
 * last opened, a later opening changes nothing on screen: the object already held stays.
 */
function keepWhenOnlyReopened(old: unknown, next: unknown): unknown {
  const before = old as Conversation | undefined;
  return before && onlyReopened(before, next as Conversation) ? before : shareById(old, next);
}

/** Opened again, with no activity since the earlier opening: the same on screen. */
function onlyReopened(before: Conversation, after: Conversation): boolean {
  const opened = before.last_opened_at;
  return (
    opened !== null &&
    (after.last_active_at ?? 0) <= opened &&
    (after.last_opened_at ?? 0) >= opened &&
    sameButOpening(before, after)
  );
}

/** The two copies say the same, but perhaps when it was last opened. */
const sameButOpening = (a: Conversation, b: Conversation): boolean =>
  JSON.stringify({ ...a, last_opened_at: 0 }) === JSON.stringify({ ...b, last_opened_at: 0 });

/**
 * The open conversation, with the changes on their way laid over it. Retrieving it marks
 * it opened on the server (a new `last_opened_at`, and the others' messages read), so it
 * is retrieved on opening and again as soon as its newest page (polled, or kept by
 * events) brings a message after its last opening: messages from others are read as they
 * arrive on screen. What changes elsewhere (pins, mutes, archiving) comes with the lists
 * it is in; only one in no polled list (opened from search) is polled itself, at the
 * lists' pace. Polling the retrieval, as parley did, marked it opened every 10 s for
 * nothing: each time a write on the server, and a new answer to the list it is in instead
 * of a 304.
 */
export function useOpenConversation(id: string | undefined): Conversation | undefined {
  const queryClient = useQueryClient();
  const changes = useQueuedChanges();
  const session = useSession();
  const query = useQuery({
    ...conversationOptions(session, id ?? ""),
    enabled: id !== undefined,
  });
  const { listMs } = usePollPace();
  usePoll(keys.conversations.detail(id ?? ""), listMs, id !== undefined, {
    quietMs: 2 * listMs,
    skip: () => id !== undefined && inPolledList(queryClient, id) !== undefined,
  });
  useEffect(() => {
    if (id === undefined) return;
    const latest = hashKey(keys.messages.latest(id));
    const detail = keys.conversations.detail(id);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== "updated" || event.action.type !== "success") return;
      const state = queryClient.getQueryState<Conversation>(detail);
      if (!state?.data || state.fetchStatus === "fetching") return;
      if (event.query.queryHash === latest) {
        const page = event.query.state.data as Page<Message> | undefined;
        const opened = state.data.last_opened_at ?? 0;
        const me = session.me.get();
        if (page?.data.some((m) => m.contact.username !== me && (m.created_at ?? 0) > opened)) {
          markReadSoon(queryClient, id);
        }
      } else if (matchQuery({ queryKey: keys.conversations.lists() }, event.query)) {
        const listed = findIn(event.query.state.data as ConversationPages | undefined, id);
        const changed = listed && changedElsewhere(state.data, listed);
        if (changed) queryClient.setQueryData(detail, changed);
      }
    });
  }, [queryClient, session, id]);
  useEffect(() => {
    if (query.data) replaceInLists(queryClient, query.data.id, query.data);
  }, [queryClient, query.data]);
  return useMemo(
    () => (query.data ? (changedConversation(query.data, changes) ?? undefined) : undefined),
    [query.data, changes],
  );
}

function findIn(data: ConversationPages | undefined, id: string): Conversation | undefined {
  for (const page of data?.pages ?? []) {
    const found = page.data.find((c) => c.id === id);
    if (found) return found;
  }
  return undefined;
}

/** The conversation as a list that is polled (on screen) has it. */
function inPolledList(queryClient: QueryClient, id: string): Conversation | undefined {
  for (const query of queryClient
    .getQueryCache()
    .findAll({ queryKey: keys.conversations.lists(), type: "active" })) {
    const found = findIn(query.state.data as ConversationPages | undefined, id);
    if (found) return found;
  }
  return undefined;
}

/**
 * The list's copy of the open conversation, when it says more than that it was opened
 * (a pin, a mute, news): the open conversation's own copy is then out of date. Its later
 * opening of the two is kept.
 */
function changedElsewhere(held: Conversation, listed: Conversation): Conversation | undefined {
  if (sameButOpening(held, listed)) return undefined;
  const opened = Math.max(held.last_opened_at ?? 0, listed.last_opened_at ?? 0);
  return { ...listed, last_opened_at: opened || null };
}

/**
 * Puts the server's copy of conversation `id` into every loaded list: in place of the one
 * held, and into a list that would now have it (restored from Archived: All). Its next
 * answer has it anyway, but the list a tab shows next could be read before that answer,
 * and a selection kept on the conversation, not finding it, went to another row.
 */
export function settleInLists(
  queryClient: QueryClient,
  id: string,
  next: Conversation | null,
): void {
  replaceInLists(queryClient, id, next);
  if (!next) return;
  for (const [key, data] of queryClient.getQueriesData<ConversationPages>({
    queryKey: keys.conversations.lists(),
  })) {
    const params = key[key.length - 1] as ListConversationsParams;
    if (!data || findIn(data, id) || !fits(params, next)) continue;
    // As an event of the change would place it (events.ts); past the pages loaded, not.
    const placed = insertByActivity(data, next);
    if (placed) queryClient.setQueryData<ConversationPages>(key, placed);
  }
}

/** Puts `next` in place of conversation `id` in every loaded list (null: takes it out). */
export function replaceInLists(
  queryClient: QueryClient,
  id: string,
  next: Conversation | null,
): void {
  queryClient.setQueriesData<ConversationPages>({ queryKey: keys.conversations.lists() }, (data) =>
    mapConversations(data, (c) => (c.id === id ? next : c)),
  );
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

/** What the cache knows of a conversation, wherever it was loaded (open, or in a list). */
export function useFindConversation(): (id: string) => Conversation | undefined {
  const queryClient = useQueryClient();
  return useCallback(
    (id) => {
      const detail = queryClient.getQueryData<Conversation>(keys.conversations.detail(id));
      if (detail) return detail;
      for (const [, data] of queryClient.getQueriesData<ConversationPages>({
        queryKey: keys.conversations.lists(),
      })) {
        const found = findIn(data, id);
        if (found) return found;
      }
      return undefined;
    },
    [queryClient],
  );
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
