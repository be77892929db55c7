// Which messages are unread: from others, newer than when you last opened the
// conversation. The sidebar counts them; the open conversation marks where they start
// (messages/use-pane-jumps.ts).
import type { Message } from "../../api/schema.ts";

export function isUnread(message: Message, lastOpenedAt: number | null, me: string | undefined) {
  return message.created_at > (lastOpenedAt ?? 0) && message.contact.username !== me;
}
