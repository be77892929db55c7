// What a conversation is called on screen: a group's id, or the other contact's user
// name as learned from messages (the id until a message from them has been seen).
import type { Contact, Conversation } from "../../api/schema.ts";
import { screenText } from "../text/sanitize.ts";

export function conversationName(c: Conversation, contacts: ReadonlyMap<string, Contact>): string {
  if (c.group_id !== null) return screenText(`#${(c.group_id).replace(/^grp_/, "")}`);
  if (c.contact_id !== null) {
    return screenText(contacts.get(c.contact_id)?.username || c.contact_id);
  }
  return screenText(c.id);
}

/** Pinned, muted (and `@` when naming you still rings), archived. */
export function conversationIcons(c: Conversation, mentionsOnly = false): string {
  const muted = c.is_muted ? (mentionsOnly ? "🔕@" : "🔕") : "";
  return `${c.is_pinned ? "📌" : ""}${muted}${c.archived_at !== null ? "📦" : ""}`;
}
