// Sending: each send is a mutation under its own Idempotency-Key, minted here, so that a
// retry can never make a second message. Sends on their way and failed sends make up a
// conversation's outbox, shown below its history until they land, are retried or dropped.
import {
  type Mutation,
  useMutation,
  useMutationState,
  useQueryClient,
} from "@tanstack/react-query";
import { useMemo } from "react";
import { newIdempotencyKey } from "../../api/client.ts";
import type { ApiError } from "../../api/errors.ts";
import { learnIdentity, useSession } from "../session.tsx";
import { prependMessage } from "./cache.ts";
import { updateConversationMessages } from "./history.ts";
import { keys } from "./keys.ts";

export type SendVariables = { conversationId: string; text: string; idempotencyKey: string };
export type OutboxEntry = SendVariables & {
  status: "pending" | "failed";
  error?: string;
  submittedAt: number;
  mutationId: number;
};

export function useSendMessage() {
  const session = useSession();
  const { api, contacts, status } = session;
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: keys.mutations.send(),
    mutationFn: ({ conversationId, text, idempotencyKey }: SendVariables) =>
      api.messages.send({ conversation_id: conversationId, message: text }, { idempotencyKey }),
    // A failed send stays in the outbox, with its text, until it is retried or dropped.
    gcTime: Number.POSITIVE_INFINITY,
    onSuccess: (message, { conversationId }) => {
      contacts.learn([message]);
      learnIdentity(session, message.contact.username);
      updateConversationMessages(queryClient, conversationId, (data) =>
        prependMessage(data, message),
      );
      void queryClient.invalidateQueries({ queryKey: keys.conversations.lists() });
    },
    onError: (error) => status.error("Not sent (Enter on it retries)", error),
  });
  return {
    /** A new message: a new idempotency key. */
    send: (conversationId: string, text: string) =>
      mutation.mutate({ conversationId, text, idempotencyKey: newIdempotencyKey() }),
    /** The same message again, under the key of its first attempt. */
    retry: (entry: SendVariables) =>
      mutation.mutate({
        conversationId: entry.conversationId,
        text: entry.text,
        idempotencyKey: entry.idempotencyKey,
      }),
  };
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

/** Forgets every attempt of a failed send (the person chose to drop it). */
export function useDiscardSend(): (idempotencyKey: string) => void {
  const queryClient = useQueryClient();
  return (idempotencyKey) => {
    const cache = queryClient.getMutationCache();
    for (const mutation of cache.getAll() as Mutation<unknown, unknown, SendVariables>[]) {
      if (mutation.state.variables?.idempotencyKey === idempotencyKey) cache.remove(mutation);
    }
  };
}
