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
//
// This file is the queue itself, plain data without React; use-outbox.ts has the hooks that
// read it and use-outbox-runner.ts the hook that works through it.
import { newIdempotencyKey } from "../../api/client.ts";
import type { NewAttachment } from "../../api/schema.ts";
import { createStore, type Store } from "../model/store.ts";
import type { Change, QueuedChange } from "./changes.ts";

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

/**
 * A send shown below the history until it lands: sending (queued or on its way), waiting
 * (held up while the server cannot be reached; the change stays "queued"), or failed
 * (refused for good), in the words of a change's own status (changes.ts).
 */
export type OutboxEntry = {
  id: string;
  conversationId: string;
  text: string;
  attachments: readonly NewAttachment[];
  idempotencyKey: string;
  status: "sending" | "waiting" | "failed";
  error?: string;
  submittedAt: number;
};

/** The sends of one conversation that have not landed, oldest first. */
export function outboxEntries(
  changes: readonly QueuedChange[],
  conversationId: string | undefined,
  /** Why the server cannot be reached, while it cannot: nothing queued can go meanwhile. */
  unreachable?: string,
): OutboxEntry[] {
  const out: OutboxEntry[] = [];
  // The outbox goes in order: behind a change waiting for the server, every change waits.
  let blocked = unreachable;
  for (const c of changes) {
    // One on its way while the server is known to be down is waiting too: not "sending…"
    // for the seconds its request takes to fail.
    const waitingFor =
      c.status === "queued"
        ? (c.error ?? blocked)
        : c.status === "sending"
          ? unreachable
          : undefined;
    if (c.status === "queued" && c.error) blocked ??= c.error;
    if (c.change.kind !== "send" || c.change.conversationId !== conversationId) continue;
    out.push({
      id: c.id,
      conversationId,
      text: c.change.text,
      attachments: c.change.attachments ?? [],
      idempotencyKey: c.change.idempotencyKey,
      status: c.status === "failed" ? "failed" : waitingFor ? "waiting" : "sending",
      error: c.error ?? waitingFor,
      submittedAt: c.queuedAt,
    });
  }
  return out;
}
