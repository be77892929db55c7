// Works through the outbox (outbox.ts): each change in order, one at a time, as a TanStack
// mutation; the server's answer goes into the cache before the change stops showing.
import { MutationObserver, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { backoffDelay, isTransient } from "../../api/retry.ts";
import type { Conversation, Message, NewAttachment } from "../../api/schema.ts";
import { useStore } from "../screen/observable.ts";
import { learnIdentity, type Session } from "../screen/session.ts";
import { useSession } from "../screen/session-context.tsx";
import { mapMessages, prependMessage } from "./cache.ts";
import { directWrites } from "./cache-writes.ts";
import { alreadyDone, type Change, WAITING } from "./changes.ts";
import { settleInLists } from "./conversations.ts";
import { applyEvent } from "./events.ts";
import { updateConversationMessages } from "./history.ts";
import { MAX_BACKOFF_MS } from "./polling.ts";
import { keys } from "./query-keys.ts";

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
    updateConversationMessages(directWrites(queryClient), conversationId, (data) =>
      mapMessages(data, (m) => (m.id === id ? next : m)),
    );
  const patchConversation = (next: Conversation | null) => {
    settleInLists(queryClient, conversationId, next);
    if (next) queryClient.setQueryData(keys.conversations.detail(conversationId), next);
    void queryClient.invalidateQueries({ queryKey: keys.conversations.lists() });
  };
  switch (change.kind) {
    case "send": {
      const message = answer as Message;
      session.contacts.learn([message]);
      learnIdentity(session, message.contact.username);
      updateConversationMessages(directWrites(queryClient), conversationId, (data) =>
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
      // As the server's event of it would (events.ts): into every list it now belongs to,
      // out of the others. Restored from Archived, it is in All before All's next answer,
      // so the cursor kept on it finds it there.
      applyEvent(
        queryClient,
        { type: "conversation.updated", conversation: answer as Conversation },
        session.me.get(),
      );
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
            // Said as the message line says it: nothing is lost, it goes out later.
            if (failures.current === 0) status.error(WAITING, error);
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
