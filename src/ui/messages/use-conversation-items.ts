// What the message pane lists for the open conversation: its history, then the sends on
// their way or failed (the outbox), each as an item the pane can select.
import { useMemo } from "react";
import { useMessages } from "../queries/history.ts";
import { useOutbox } from "../queries/use-outbox.ts";
import type { Item } from "./message-lines.ts";

export function useConversationItems(conversationId: string | undefined) {
  const history = useMessages(conversationId);
  const outbox = useOutbox(conversationId);
  const items: Item[] = useMemo(
    () => [
      ...history.messages.map((message): Item => ({ kind: "message", key: message.id, message })),
      ...outbox.map(
        (entry): Item => ({ kind: "outbox", key: `out:${entry.idempotencyKey}`, entry }),
      ),
    ],
    [history.messages, outbox],
  );
  return { history, items };
}
