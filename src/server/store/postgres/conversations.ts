// Conversations in PostgreSQL as each member sees them: shared fields plus the member's
// own settings. One conversation per pair and per group is the UNIQUE constraints' job.
import type { ConversationJson } from "../../wire.ts";
import type { ConversationFilter, Cursor, Page } from "../store.ts";
import type { Q } from "./sql.ts";

const SELECT = `
  SELECT c.id, ms.contact_id, c.group_id, c.pinned_message_id, ms.is_pinned, ms.is_muted,
         c.last_active_at, ms.last_opened_at, c.created_at, ms.archived_at
  FROM memberships ms JOIN conversations c ON c.id = ms.conversation_id`;

const ACTIVITY = "coalesce(c.last_active_at, c.created_at)";

export async function visibleConversation(
  q: Q,
  id: string,
  userId: string,
): Promise<ConversationJson | undefined> {
  const [row] = await q<ConversationJson[]>`
    ${q.unsafe(SELECT)} WHERE ms.user_id = ${userId} AND ms.conversation_id = ${id}`;
  return row && { ...row };
}

export async function conversationCursor(
  q: Q,
  id: string,
  userId: string,
): Promise<Cursor | undefined> {
  const [row] = await q<Cursor[]>`
    SELECT ${q.unsafe(ACTIVITY)} AS key, c.id AS id FROM memberships ms
    JOIN conversations c ON c.id = ms.conversation_id
    WHERE ms.user_id = ${userId} AND ms.conversation_id = ${id}`;
  return row;
}

export async function listConversations(
  q: Q,
  userId: string,
  filter: ConversationFilter,
  limit: number,
  page: Page,
): Promise<ConversationJson[]> {
  const where = [q`ms.user_id = ${userId}`];
  if (filter.muted !== undefined) where.push(q`ms.is_muted = ${filter.muted}`);
  if (filter.pinned !== undefined) where.push(q`ms.is_pinned = ${filter.pinned}`);
  if (filter.archived !== undefined) {
    where.push(q`(ms.archived_at IS NOT NULL) = ${filter.archived}`);
  }
  if (filter.groupId !== undefined) where.push(q`c.group_id = ${filter.groupId}`);
  const cursor = page.after ?? page.before;
  if (page.after && cursor) {
    where.push(q`(${q.unsafe(ACTIVITY)}, c.id) < (${cursor.key}, ${cursor.id})`);
  }
  if (page.before && cursor) {
    where.push(q`(${q.unsafe(ACTIVITY)}, c.id) > (${cursor.key}, ${cursor.id})`);
  }
  const condition = where.reduce((all, next) => q`${all} AND ${next}`);
  const order = page.before ? "ASC" : "DESC";
  const rows = await q<ConversationJson[]>`
    ${q.unsafe(SELECT)} WHERE ${condition}
    ORDER BY ${q.unsafe(ACTIVITY)} ${q.unsafe(order)}, c.id ${q.unsafe(order)} LIMIT ${limit}`;
  const list = rows.map((row) => ({ ...row }));
  return page.before ? list.reverse() : list;
}
