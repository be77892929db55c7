// The outbox: every change a person makes (send, edit, react, delete, pin, mute, archive)
// is queued here, shown at once laid over the server's data, and carried out in order, one
// at a time, each exactly once: sends under their Idempotency-Key, toggles as their final
// state. While the server cannot be reached a change waits (and later ones behind it);
// when it answers again the queue goes on. A change the server refuses for good is dropped
// with its reason in the status bar, except a send, which stays with its text.
//
// This is parley's own queue rather than TanStack's paused mutations: those pause only
// while TanStack's onlineManager says offline, which is one flag per process (parley ssh
// runs many sessions in one) that nothing in Node sets, so a send made while the server is
// down fails instead of pausing; and restored paused mutations have had their own bugs
// (isPaused stuck after a resume, TanStack/query#8999). Each attempt still runs as a
// TanStack mutation, so its outcome reaches the status line like every other.
import { MutationObserver, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { newIdempotencyKey } from "../../api/client.ts";
import { backoffDelay, isTransient } from "../../api/retry.ts";
import type { Conversation, Message, NewAttachment } from "../../api/schema.ts";
import { createStore, type Store, useStore } from "../screen/observable.ts";
import { learnIdentity, type Session, useSession } from "../screen/session-context.tsx";
import { mapMessages, prependMessage } from "./cache.ts";
import { alreadyDone, type Change, type QueuedChange } from "./changes.ts";
import { replaceInLists } from "./conversations.ts";
import { updateConversationMessages } from "./history.ts";
import { MAX_BACKOFF_MS } from "./polling.ts";
import { keys } from "./query-keys.ts";

export type Outbox = {
  changes: Store<readonly QueuedChange[]>;
  add(change: Change, wording: { failure: string; success?: string }): void;
  update(id: string, patch: Partial<QueuedChange>): void;
  remove(id: string): void;
  /** Try now what waits for the server (Enter on a send that is waiting). */
  retry(id: string): void;
  /** Bumped by `retry`: the runner stops waiting out its back-off. */
  retries: Store<number>;
};

let counter = 0;

export function createOutbox(initial: readonly QueuedChange[] = []): Outbox {
  // Whatever was on its way when parley stopped goes again (a send under the same key).
  const changes = createStore<readonly QueuedChange[]>(
    initial.map((c) => (c.status === "sending" ? { ...c, status: "queued" } : c)),
  );
  const retries = createStore(0);
  return {
    changes,
    retries,
    retry(id) {
      changes.set((all) =>
        all.map((c) => (c.id === id && c.status !== "sending" ? { ...c, status: "queued" } : c)),
      );
      retries.set((n) => n + 1);
    },
    add: (change, wording) =>
      changes.set((all) => [
        ...all,
        {
          id: `${Date.now().toString(36)}-${(counter++).toString(36)}`,
          change,
          status: "queued",
          queuedAt: Date.now(),
          ...wording,
        },
      ]),
    update: (id, patch) =>
      changes.set((all) => all.map((c) => (c.id === id ? { ...c, ...patch } : c))),
    remove: (id) => changes.set((all) => all.filter((c) => c.id !== id)),
  };
}

/** Queues a change; it shows on screen at once and reaches the server when it can. */
export function useQueueChange(): (
  change: Change,
  wording: { failure: string; success?: string },
) => void {
  const { outbox } = useSession();
  return outbox.add;
}

/** A new message, under a new idempotency key. */
export function sendChange(
  conversationId: string,
  text: string,
  attachments: readonly NewAttachment[] = [],
): Change {
  return {
    kind: "send",
    conversationId,
    text,
    idempotencyKey: newIdempotencyKey(),
    ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
  };
}

/** Every change still queued or refused, oldest first. */
export function useQueuedChanges(): readonly QueuedChange[] {
  return useStore(useSession().outbox.changes);
}

/** A send shown below the history until it lands: on its way, waiting, or refused. */
export type OutboxEntry = {
  id: string;
  conversationId: string;
  text: string;
  attachments: readonly NewAttachment[];
  idempotencyKey: string;
  status: "pending" | "waiting" | "failed";
  error?: string;
  submittedAt: number;
};

/** The sends of one conversation that have not landed, oldest first. */
export function useOutbox(conversationId: string | undefined): OutboxEntry[] {
  const changes = useQueuedChanges();
  return useMemo(() => {
    const out: OutboxEntry[] = [];
    for (const c of changes) {
      if (c.change.kind !== "send" || c.change.conversationId !== conversationId) continue;
      out.push({
        id: c.id,
        conversationId,
        text: c.change.text,
        attachments: c.change.attachments ?? [],
        idempotencyKey: c.change.idempotencyKey,
        status: c.status === "failed" ? "failed" : c.error ? "waiting" : "pending",
        error: c.error,
        submittedAt: c.queuedAt,
      });
    }
    return out;
  }, [changes, conversationId]);
}

/**
 * The attachments the message does not have yet. A PUT adds and has no idempotency key, so
 * a try after one whose answer never came (a timeout, a restart) looks first, rather than
 * adding the same files twice.
 */
function notYetOn(message: Message, attachments: readonly NewAttachment[]): NewAttachment[] {
  const has = new Set(message.attachments.map((a) => a.file_url ?? a.url));
  return attachments.filter((a) => !has.has(a.file_url));
}

/**
 * Carries out one change; resolves with what the server answered (nothing for a delete).
 * `retried`: an earlier try may have reached the server without its answer reaching us.
 */
async function perform(
  session: Session,
  change: Change,
  retried: boolean,
): Promise<Message | Conversation | null> {
  const { api } = session;
  switch (change.kind) {
    case "send":
      return api.messages.send(
        {
          conversation_id: change.conversationId,
          message: change.text,
          attachments: change.attachments,
        },
        { idempotencyKey: change.idempotencyKey },
      );
    case "edit":
      return api.messages.update(change.messageId, { message: change.text });
    case "attach": {
      if (!retried)
        return api.messages.update(change.messageId, { attachments: change.attachments });
      const message = await api.messages.get(change.messageId);
      const missing = notYetOn(message, change.attachments);
      return missing.length > 0
        ? api.messages.update(change.messageId, { attachments: missing })
        : message;
    }
    case "react":
      return api.messages.update(change.messageId, { reactions: { [change.name]: change.users } });
    case "deleteMessage":
      await api.messages.delete(change.messageId);
      return null;
    case "updateConversation":
      return api.conversations.update(change.conversationId, change.params);
    case "deleteConversation":
      await api.conversations.delete(change.conversationId);
      return null;
  }
}

/** Puts the server's answer to a change into the cache, before the change stops showing. */
function settle(
  queryClient: ReturnType<typeof useQueryClient>,
  session: Session,
  change: Change,
  answer: Message | Conversation | null,
): void {
  const { conversationId } = change;
  const patchMessage = (id: string, next: Message | null) =>
    updateConversationMessages(queryClient, conversationId, (data) =>
      mapMessages(data, (m) => (m.id === id ? next : m)),
    );
  const patchConversation = (next: Conversation | null) => {
    replaceInLists(queryClient, conversationId, next);
    if (next) queryClient.setQueryData(keys.conversations.detail(conversationId), next);
    void queryClient.invalidateQueries({ queryKey: keys.conversations.lists() });
  };
  switch (change.kind) {
    case "send": {
      const message = answer as Message;
      session.contacts.learn([message]);
      learnIdentity(session, message.contact.username);
      updateConversationMessages(queryClient, conversationId, (data) =>
        prependMessage(data, message),
      );
      void queryClient.invalidateQueries({ queryKey: keys.conversations.lists() });
      return;
    }
    case "edit":
    case "react":
    case "attach":
      if (answer) patchMessage(change.messageId, answer as Message);
      return;
    case "deleteMessage":
      patchMessage(change.messageId, null);
      return;
    case "updateConversation":
      patchConversation(answer as Conversation);
      return;
    case "deleteConversation":
      patchConversation(null);
      queryClient.removeQueries({ queryKey: keys.conversations.detail(conversationId) });
      queryClient.removeQueries({ queryKey: keys.messages.list(conversationId) });
      queryClient.removeQueries({ queryKey: keys.messages.latest(conversationId) });
      return;
  }
}

/**
 * Works through the outbox, in order, one change at a time. A change that cannot reach
 * the server waits (backing off, up to 8 s) and is tried again at once when the server
 * answers any request.
 */
export function useOutboxRunner(): void {
  const session = useSession();
  const { outbox, status } = session;
  const queryClient = useQueryClient();
  const changes = useStore(outbox.changes);
  const connection = useStore(status.connection);
  const retries = useStore(outbox.retries);
  const busy = useRef(false);
  const failures = useRef(0);
  const wait = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [wake, setWake] = useState(0);

  // The server answered again, or the person asked (Enter on a waiting send): whatever
  // waits goes now.
  const goNow = () => {
    if (wait.current === undefined) return;
    clearTimeout(wait.current);
    wait.current = undefined;
    setWake((n) => n + 1);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of state is the event
  useEffect(() => {
    if (connection.state === "online") goNow();
  }, [connection.state]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a retry is the event
  useEffect(goNow, [retries]);

  useEffect(() => () => clearTimeout(wait.current), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: wake is when to look again
  useEffect(() => {
    if (busy.current || wait.current !== undefined) return;
    const next = changes.find((c) => c.status === "queued");
    if (!next) return;
    busy.current = true;
    const retried = next.tried === true;
    outbox.update(next.id, { status: "sending", tried: true });
    const observer = new MutationObserver(queryClient, {
      mutationKey: keys.mutations.change(next.change.kind),
      mutationFn: () => perform(session, next.change, retried),
    });
    void observer
      .mutate()
      .then(
        (answer) => {
          failures.current = 0;
          settle(queryClient, session, next.change, answer);
          outbox.remove(next.id);
          if (next.success) status.info(next.success);
        },
        (error: unknown) => {
          if (alreadyDone(next.change, error)) {
            settle(queryClient, session, next.change, null);
            outbox.remove(next.id);
            if (next.success) status.info(next.success);
            return;
          }
          const reason = error instanceof Error ? error.message : String(error);
          if (isTransient(error)) {
            if (failures.current === 0) status.error(next.failure, error);
            failures.current++;
            outbox.update(next.id, { status: "queued", error: reason });
            wait.current = setTimeout(
              () => {
                wait.current = undefined;
                setWake((n) => n + 1);
              },
              backoffDelay(1000, failures.current, MAX_BACKOFF_MS),
            );
            return;
          }
          status.error(next.failure, error);
          // A refused send keeps its text on screen; any other refused change is undone.
          if (next.change.kind === "send")
            outbox.update(next.id, { status: "failed", error: reason });
          else outbox.remove(next.id);
        },
      )
      .finally(() => {
        busy.current = false;
        observer.reset();
        setWake((n) => n + 1);
      });
  }, [changes, wake, queryClient, session, outbox, status]);
}
