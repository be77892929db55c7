// Rows -> message JSON, for both stores: each reads a page's messages, then the senders,
// reactions and attachments of all of them at once, and puts them together here.
import type { AttachmentJson, ContactJson, MessageJson, ReactionJson } from "../wire.ts";
import type { MessageRow } from "./store.ts";

/** `reactions` in first-use order per message, `attachments` in id order. */
export function assembleMessages(
  rows: readonly MessageRow[],
  senderRows: readonly ContactJson[],
  reactionRows: readonly { message_id: string; name: string; usernames: string[] }[],
  attachmentRows: readonly AttachmentJson[],
): MessageJson[] {
  const reactions = new Map<string, ReactionJson[]>();
  for (const r of reactionRows) {
    const list = reactions.get(r.message_id) ?? [];
    list.push({ [r.name]: r.usernames });
    reactions.set(r.message_id, list);
  }
  const attachments = new Map<string, AttachmentJson[]>();
  for (const a of attachmentRows) {
    const list = attachments.get(a.message_id) ?? [];
    list.push({ ...a });
    attachments.set(a.message_id, list);
  }
  const senders = new Map(senderRows.map((contact) => [contact.id, { ...contact }]));
  return rows.map((row) => ({
    id: row.id,
    conversation_id: row.conversation_id,
    contact: senders.get(row.sender_id)!,
    message: row.body,
    reactions: reactions.get(row.id) ?? [],
    attachments: attachments.get(row.id) ?? [],
    read_at: row.read_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

/** A reaction's user list with `username` in (`on`) or out; undefined when that changes nothing. */
export function withReactor(
  current: readonly string[],
  username: string,
  on: boolean,
): string[] | undefined {
  if (current.includes(username) === on) return undefined;
  return on ? [...current, username] : current.filter((name) => name !== username);
}
