// A change a person made (send, edit, react, delete, pin, mute, archive) as data: what it
// sends, and how it shows on screen until the server has it. Pure, so the outbox can keep
// changes on disk and the screen can lay them over what the server last said.

import { isApiError } from "../../api/errors.ts";
import {
  type Attachment,
  type Conversation,
  type Message,
  NewAttachment,
  UpdateConversationParams,
} from "../../api/schema.ts";
import { z } from "../../zod.ts";
import { withReactors } from "../model/reactions.ts";

/** A change that cannot reach the server yet, in the status bar and on its message. */
export const WAITING = "Not sent yet, goes out when the server answers";

export type Change =
  | {
      kind: "send";
      conversationId: string;
      text: string;
      idempotencyKey: string;
      attachments?: NewAttachment[];
    }
  | { kind: "edit"; conversationId: string; messageId: string; text: string }
  /** Attachments added to a message (a PUT adds them to the ones it has). */
  | { kind: "attach"; conversationId: string; messageId: string; attachments: NewAttachment[] }
  | {
      kind: "react";
      conversationId: string;
      messageId: string;
      name: string;
      /** The whole list of who reacted with `name` after the change (the contract replaces it). */
      users: string[];
    }
  | { kind: "deleteMessage"; conversationId: string; messageId: string }
  | { kind: "updateConversation"; conversationId: string; params: UpdateConversationParams }
  | { kind: "deleteConversation"; conversationId: string };

const onMessage = { conversationId: z.string(), messageId: z.string() };

/** A change as read back from disk: checked, never taken on trust. */
const ChangeSchema: z.ZodType<Change> = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("send"),
    conversationId: z.string(),
    text: z.string(),
    idempotencyKey: z.string().min(1),
    attachments: z.array(NewAttachment).optional(),
  }),
  z.object({ kind: z.literal("edit"), ...onMessage, text: z.string() }),
  z.object({ kind: z.literal("attach"), ...onMessage, attachments: z.array(NewAttachment) }),
  z.object({
    kind: z.literal("react"),
    ...onMessage,
    name: z.string(),
    users: z.array(z.string()),
  }),
  z.object({ kind: z.literal("deleteMessage"), ...onMessage }),
  z.object({
    kind: z.literal("updateConversation"),
    conversationId: z.string(),
    params: UpdateConversationParams,
  }),
  z.object({ kind: z.literal("deleteConversation"), conversationId: z.string() }),
]);

/**
 * How a change fared: queued (not tried yet, or waiting for the server to answer again),
 * sending, or refused by the server for good (with its reason).
 */
export type ChangeStatus = "queued" | "sending" | "failed";

export type QueuedChange = {
  id: string;
  change: Change;
  status: ChangeStatus;
  /** The last error: the server's reason for a refusal, or why it is still waiting. */
  error?: string;
  /** Tried before: it may have reached the server though its answer never came. */
  tried?: boolean;
  /** What the status bar says if it fails, and once it is done. */
  failure: string;
  success?: string;
  queuedAt: number;
};

/** A queued change as read back from disk (the outbox kept between runs). */
export const SavedChange: z.ZodType<QueuedChange> = z.object({
  id: z.string(),
  change: ChangeSchema,
  status: z.enum(["queued", "sending", "failed"]),
  error: z.string().optional(),
  tried: z.boolean().optional(),
  failure: z.string(),
  success: z.string().optional(),
  queuedAt: z.number(),
});

/** A delete that finds nothing has nothing left to do (an earlier try got there). */
export function alreadyDone(change: Change, error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 404 &&
    (change.kind === "deleteMessage" || change.kind === "deleteConversation")
  );
}

const pending = new WeakSet<Message>();

/** Whether this message, as shown, has changes the server has not confirmed yet. */
export function isPending(message: Message): boolean {
  return pending.has(message);
}

/** A message as it will be after the changes still on their way (null: deleted). */
export function changedMessage(message: Message, changes: readonly QueuedChange[]): Message | null {
  let result: Message | null = message;
  for (const { change, status, queuedAt } of changes) {
    if (!result || status === "failed" || !("messageId" in change)) continue;
    if (change.messageId !== message.id) continue;
    if (change.kind === "edit")
      result = { ...result, message: change.text, updated_at: Math.floor(queuedAt / 1000) };
    else if (change.kind === "react") result = withReactors(result, change.name, change.users);
    else if (change.kind === "attach")
      result = {
        ...result,
        attachments: [...result.attachments, ...change.attachments.map(shownAttachment)],
      };
    else if (change.kind === "deleteMessage") result = null;
  }
  if (result && result !== message) pending.add(result);
  return result;
}

/** An attachment on its way, as it shows until the server has it. */
export function shownAttachment(a: NewAttachment): Attachment {
  return {
    filename: a.filename ?? null,
    file_url: a.file_url,
    url: null,
    file_type: a.file_type ?? null,
    file_size: a.file_size ?? null,
    created_at: null,
  };
}

/** The messages of one conversation as they will be after the changes on their way. */
export function changedMessages(
  messages: readonly Message[],
  changes: readonly QueuedChange[],
): Message[] {
  if (!changes.some((c) => "messageId" in c.change)) return messages as Message[];
  return messages.flatMap((m) => {
    const next = changedMessage(m, changes);
    return next ? [next] : [];
  });
}

/** A conversation as it will be after the changes on their way (null: deleted). */
export function changedConversation(
  conversation: Conversation,
  changes: readonly QueuedChange[],
): Conversation | null {
  let result: Conversation | null = conversation;
  for (const { change, status } of changes) {
    if (!result || status === "failed" || change.conversationId !== conversation.id) continue;
    if (change.kind === "updateConversation") result = { ...result, ...change.params };
    else if (change.kind === "deleteConversation") result = null;
  }
  return result;
}

/** How many changes still wait to reach the server (refused ones are not waiting). */
export function waitingCount(changes: readonly QueuedChange[]): number {
  return changes.filter((c) => c.status !== "failed").length;
}
