// Which messages are unread: from others, newer than when you last opened the
// conversation. The sidebar counts them; the open conversation marks where they start.
import type { Message } from "../../api/schema.ts";
import type { Item } from "./message-lines.ts";

export function isUnread(message: Message, lastOpenedAt: number | null, me: string | undefined) {
  return message.created_at > (lastOpenedAt ?? 0) && message.contact.username !== me;
}

/** The key of the first unread item, or undefined when none is (or none is loaded). */
export function firstUnreadKey(
  items: readonly Item[],
  lastOpenedAt: number | null,
  me: string | undefined,
): string | undefined {
  return items.find((item) => item.kind === "message" && isUnread(item.message, lastOpenedAt, me))
    ?.key;
}
