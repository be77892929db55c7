// The outbox (outbox.ts) as the screen reads it. A change is queued with the session's
// `outbox.add`: it shows on screen at once and reaches the server when it can.
import { useMemo } from "react";
import { useStore } from "../screen/observable.ts";
import { useSession } from "../screen/session-context.tsx";
import type { QueuedChange } from "./changes.ts";
import { type OutboxEntry, outboxEntries } from "./outbox.ts";

/** Every change still queued or refused, oldest first. */
export function useQueuedChanges(): readonly QueuedChange[] {
  return useStore(useSession().outbox.changes);
}

/** The sends of one conversation that have not landed, oldest first. */
export function useOutbox(conversationId: string | undefined): OutboxEntry[] {
  const changes = useQueuedChanges();
  const connection = useStore(useSession().status.connection);
  const unreachable = connection.state === "offline" ? connection.reason : undefined;
  return useMemo(
    () => outboxEntries(changes, conversationId, unreachable),
    [changes, conversationId, unreachable],
  );
}
