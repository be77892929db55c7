// Message history per conversation (infinite, newest page first), the polled newest
// page merged into it, sidebar previews, and the mutations on messages.
import {
  type Mutation,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useMutationState,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import type { ApiError } from "../../api/errors.ts";
import type { Conversation, Message } from "../../api/schema.ts";
import { learnIdentity, learnIdentityFrom, useApi, useSession } from "../session.tsx";
import {
  chronological,
  type MessagePages,
  mapMessages,
  mergeLatest,
  oldestId,
  prependMessage,
  toggledReactors,
  withReactors,
} from "./cache.ts";
import { LIST_POLL_MS, OPEN_POLL_MS } from "./conversations.ts";
import { pollInterval } from "./polling.ts";
import { keys } from "./queryKeys.ts";

const HISTORY_PAGE = 50;
const LATEST_PAGE = 50;
const PREVIEW_PAGE = 20;

export function useMessages(conversationId: string | undefined) {
  const api = useApi();
  const { contacts } = useSession();
  const queryClient = useQueryClient();
  const enabled = conversationId !== undefined;
  const history = useInfiniteQuery({
    queryKey: keys.messages.list(conversationId ?? ""),
    queryFn: async ({ pageParam }) => {
      const page = await api.messages.list({
        conversation_id: conversationId!,
        limit: HISTORY_PAGE,
        ...(pageParam ? { starting_after: pageParam } : {}),
      });
      contacts.learn(page.data);
      return page;
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last, all) => (last.has_more ? oldestId(all) : undefined),
    enabled,
    // History is kept fresh by the poll below, not by refetching every loaded page.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const latest = useQuery({
    queryKey: keys.messages.latest(conversationId ?? ""),
    queryFn: async () => {
      const page = await api.messages.list({
        conversation_id: conversationId!,
        limit: LATEST_PAGE,
      });
      contacts.learn(page.data);
      return page;
    },
    enabled: enabled && history.isSuccess,
    refetchInterval: enabled ? pollInterval(OPEN_POLL_MS) : false,
  });
  // Merged on every poll answer, and again whenever an older page lands: TanStack stores a
  // fetched page on top of the pages as they were when it was asked for, which drops what
  // a poll merged while it was on its way (news would vanish until the next news).
  const pageCount = history.data?.pages.length ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: pageCount is when to run again, not an input
  useEffect(() => {
    if (!conversationId || !latest.data) return;
    queryClient.setQueryData<MessagePages>(keys.messages.list(conversationId), (data) =>
      mergeLatest(data as MessagePages | undefined, latest.data),
    );
  }, [queryClient, conversationId, latest.data, pageCount]);
  const messages = useMemo(
    () => chronological(history.data as MessagePages | undefined),
    [history.data],
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

export type Preview = { newest: Message | undefined; unread: number; unreadMore: boolean };

/**
 * A sidebar row's preview and unread count. Its key holds the conversation's activity
 * and open times, so it is fetched again only when one of them changes.
 */
export function usePreview(
  conversation: Conversation,
  me: string | undefined,
): Preview | undefined {
  const api = useApi();
  const session = useSession();
  const { data } = useQuery({
    queryKey: keys.messages.preview(
      conversation.id,
      conversation.last_active_at,
      conversation.last_opened_at,
    ),
    queryFn: async () => {
      const page = await api.messages.list({
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
  return useMemo(() => {
    if (!data) return undefined;
    const opened = conversation.last_opened_at ?? 0;
    const unreadMessages = data.data.filter(
      (m) => m.created_at > opened && m.contact.username !== me,
    );
    return {
      newest: data.data[0],
      unread: unreadMessages.length,
      unreadMore: unreadMessages.length === data.data.length && data.has_more,
    };
  }, [data, conversation.last_opened_at, me]);
}

/** The conversation's pinned message: from the loaded history, else fetched on its own. */
export function usePinnedMessage(
  pinnedId: string | null | undefined,
  loaded: readonly Message[],
): Message | null | undefined {
  const api = useApi();
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

const INBOX_PAGE = 20;

/** The newest messages across all conversations, polled with the conversation list. */
export function useInbox(): Message[] | undefined {
  const api = useApi();
  const { contacts } = useSession();
  const { data } = useQuery({
    queryKey: keys.messages.inbox(),
    queryFn: async () => {
      const page = await api.messages.list({ limit: INBOX_PAGE });
      contacts.learn(page.data);
      return page.data;
    },
    refetchInterval: pollInterval(LIST_POLL_MS),
  });
  return data;
}

// ---- sending ----

export type SendVariables = { conversationId: string; text: string; idempotencyKey: string };
export type OutboxEntry = SendVariables & {
  status: "pending" | "failed";
  error?: string;
  submittedAt: number;
  mutationId: number;
};

export function useSendMessage() {
  const api = useApi();
  const session = useSession();
  const { contacts, status } = session;
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: keys.mutations.send(),
    mutationFn: ({ conversationId, text, idempotencyKey }: SendVariables) =>
      api.messages.send({ conversation_id: conversationId, message: text }, { idempotencyKey }),
    // A failed send stays in the outbox, with its text, until it is retried or dropped.
    gcTime: Number.POSITIVE_INFINITY,
    onSuccess: (message, { conversationId }) => {
      contacts.learn([message]);
      learnIdentity(session, message.contact.username);
      queryClient.setQueryData<MessagePages>(keys.messages.list(conversationId), (data) =>
        prependMessage(data, message),
      );
      void queryClient.invalidateQueries({ queryKey: keys.conversations.lists() });
    },
    onError: (error) => status.error("Not sent (Enter on it retries)", error),
  });
}

/**
 * Sends in flight and failed sends of one conversation, oldest first. A retry is a new
 * mutation with the same idempotency key; only the newest attempt per key is shown, and
 * a key whose latest attempt succeeded is gone (the message is in the history).
 */
export function useOutbox(conversationId: string | undefined): OutboxEntry[] {
  const attempts = useMutationState({
    filters: { mutationKey: keys.mutations.send() },
    select: (mutation) => ({
      variables: mutation.state.variables as SendVariables | undefined,
      status: mutation.state.status,
      error: mutation.state.error as ApiError | null,
      submittedAt: mutation.state.submittedAt,
      mutationId: mutation.mutationId,
    }),
  });
  return useMemo(() => {
    const latestByKey = new Map<string, (typeof attempts)[number]>();
    for (const attempt of attempts) {
      const v = attempt.variables;
      if (!v || v.conversationId !== conversationId) continue;
      const prev = latestByKey.get(v.idempotencyKey);
      if (!prev || prev.submittedAt <= attempt.submittedAt)
        latestByKey.set(v.idempotencyKey, attempt);
    }
    const out: OutboxEntry[] = [];
    for (const attempt of latestByKey.values()) {
      if (attempt.status !== "pending" && attempt.status !== "error") continue;
      out.push({
        ...attempt.variables!,
        status: attempt.status === "pending" ? "pending" : "failed",
        error: attempt.error?.message,
        submittedAt: attempt.submittedAt,
        mutationId: attempt.mutationId,
      });
    }
    return out.sort((a, b) => a.submittedAt - b.submittedAt);
  }, [attempts, conversationId]);
}

/** Forgets every attempt of a failed send (the user chose to drop it). */
export function discardSend(queryClient: QueryClient, idempotencyKey: string): void {
  const cache = queryClient.getMutationCache();
  for (const mutation of cache.getAll() as Mutation<unknown, unknown, SendVariables>[]) {
    if (mutation.state.variables?.idempotencyKey === idempotencyKey) cache.remove(mutation);
  }
}

// ---- changing messages ----

async function snapshotMessages(queryClient: QueryClient, conversationId: string) {
  await queryClient.cancelQueries({ queryKey: keys.messages.list(conversationId) });
  return queryClient.getQueryData<MessagePages>(keys.messages.list(conversationId));
}

function patchMessages(
  queryClient: QueryClient,
  conversationId: string,
  fn: (m: Message) => Message | null,
): void {
  queryClient.setQueryData<MessagePages>(keys.messages.list(conversationId), (data) =>
    mapMessages(data, fn),
  );
}

function useMessageMutation<V extends { message: Message }>(options: {
  run: (variables: V) => Promise<Message | null>;
  optimistic: (message: Message, variables: V) => Message | null;
  failure: string;
  success?: string;
}) {
  const queryClient = useQueryClient();
  const { status } = useSession();
  return useMutation({
    mutationFn: options.run,
    onMutate: async (variables: V) => {
      const id = variables.message.conversation_id;
      const snapshot = await snapshotMessages(queryClient, id);
      patchMessages(queryClient, id, (m) =>
        m.id === variables.message.id ? options.optimistic(m, variables) : m,
      );
      return { snapshot };
    },
    onError: (error, variables, context) => {
      queryClient.setQueryData(
        keys.messages.list(variables.message.conversation_id),
        context?.snapshot,
      );
      status.error(options.failure, error);
    },
    onSuccess: (result, variables) => {
      if (result) {
        patchMessages(queryClient, variables.message.conversation_id, (m) =>
          m.id === result.id ? result : m,
        );
      }
      if (options.success) status.info(options.success);
    },
    onSettled: (_r, _e, variables) =>
      queryClient.invalidateQueries({
        queryKey: keys.messages.latest(variables.message.conversation_id),
      }),
  });
}

export function useEditMessage() {
  const api = useApi();
  return useMessageMutation<{ message: Message; text: string }>({
    run: ({ message, text }) => api.messages.update(message.id, { message: text }),
    optimistic: (m, { text }) => ({
      ...m,
      message: text,
      updated_at: Math.floor(Date.now() / 1000),
    }),
    failure: "Could not edit the message",
  });
}

export function useDeleteMessage() {
  const api = useApi();
  return useMessageMutation<{ message: Message }>({
    run: async ({ message }) => {
      await api.messages.delete(message.id);
      return null;
    },
    optimistic: () => null,
    failure: "Could not delete the message",
    success: "Message deleted.",
  });
}

export function useToggleReaction() {
  const api = useApi();
  return useMessageMutation<{ message: Message; name: string; me: string }>({
    run: ({ message, name, me }) =>
      api.messages.update(message.id, {
        reactions: { [name]: toggledReactors(message, name, me) },
      }),
    optimistic: (m, { name, me }) => withReactors(m, name, toggledReactors(m, name, me)),
    failure: "Could not react",
  });
}
