// What the message pane lists for the open conversation: its history, then the sends on
// their way or failed (the outbox), each as an item the pane can select. The outbox goes
// below the newest message: a send made while the history is windowed far back
// (queries/history.ts) first brings the newest messages back, then shows below them.
import { useEffect, useMemo, useRef } from "react";
import { useMessages } from "../queries/history.ts";
import { useOutbox } from "../queries/use-outbox.ts";
import type { Item } from "./message-lines.ts";

export function useConversationItems(conversationId: string | undefined) {
  const history = useMessages(conversationId);
  const outbox = useOutbox(conversationId);
  const sending = outbox.at(-1)?.idempotencyKey;
  const seen = useRef(sending);
  const { hasNewer, toNewest } = history;
  useEffect(() => {
    if (sending === seen.current) return;
    seen.current = sending;
    if (sending !== undefined && hasNewer) toNewest();
  }, [sending, hasNewer, toNewest]);
  const items: Item[] = useMemo(
    () => [
      ...history.messages.map((message): Item => ({ kind: "message", key: message.id, message })),
      ...(hasNewer ? [] : outbox).map(
        (entry): Item => ({ kind: "outbox", key: `out:${entry.idempotencyKey}`, entry }),
      ),
    ],
    [history.messages, hasNewer, outbox],
  );
  return { history, items };
}
