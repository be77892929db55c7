// Conversations in PostgreSQL as each member sees them: shared fields plus the member's
// own settings. One conversation per pair and per group is the UNIQUE constraints' job.
import type { ConversationJson } from "../../wire.ts";
import {
  type ConversationFilter,
  type Cursor,
  encodeReadMark,
  type Page,
  type Store,
} from "../store.ts";
import { appendEvent } from "./events.ts";
import type { Q, Write } from "./sql.ts";

const SELECT = `
  SELECT c.id, ms.contact_id, c.group_id, c.pinned_message_id, ms.is_pinned, ms.is_muted,
         c.last_active_at, ms.last_opened_at, c.created_at, ms.archived_at
  FROM memberships ms JOIN conversations c ON c.id = ms.conversation_id`;

const ACTIVITY = "coalesce(c.last_active_at, c.created_at)";

async function visibleConversation(
  q: Q,
  id: string,
  userId: string,
): Promise<ConversationJson | undefined> {
  const [row] = await q<ConversationJson[]>`
    ${q.unsafe(SELECT)} WHERE ms.user_id = ${userId} AND ms.conversation_id = ${id}`;
  return row && { ...row };
}

async function conversationCursor(q: Q, id: string, userId: string): Promise<Cursor | undefined> {
  const [row] = await q<Cursor[]>`
    SELECT ${q.unsafe(ACTIVITY)} AS key, c.id AS id FROM memberships ms
    JOIN conversations c ON c.id = ms.conversation_id
    WHERE ms.user_id = ${userId} AND ms.conversation_id = ${id}`;
  return row;
}

async function listConversations(
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

export function createConversationStore(sql: Q, write: Write): Store["conversations"] {
  return {
    visibleTo: (id, userId) => visibleConversation(sql, id, userId),
    async isMember(id, userId) {
      const rows = await sql`
        SELECT 1 FROM memberships WHERE conversation_id = ${id} AND user_id = ${userId}`;
      return rows.length > 0;
    },
    cursor: (id, userId) => conversationCursor(sql, id, userId),
    list: (userId, filter, limit, page) => listConversations(sql, userId, filter, limit, page),
    openWithContact(userId, contactId, newId, now) {
      const pairKey = [userId, contactId].sort().join("|");
      return write(async (tx) => {
        // A concurrent insert of the same pair waits here until the first commits.
        await tx`INSERT INTO conversations (id, pair_key, created_at)
          VALUES (${newId}, ${pairKey}, ${now}) ON CONFLICT (pair_key) DO NOTHING`;
        const [row] = await tx<{ id: string }[]>`
          SELECT id FROM conversations WHERE pair_key = ${pairKey}`;
        const id = row!.id;
        const [a, b] = [userId, contactId].sort() as [string, string];
        const added = await tx<{ user_id: string }[]>`
          INSERT INTO memberships (user_id, conversation_id, contact_id)
          VALUES (${a}, ${id}, ${b}), (${b}, ${id}, ${a}) ON CONFLICT DO NOTHING
          RETURNING user_id`;
        const recipients = added.map((row) => row.user_id);
        await appendEvent(tx, "conversation.created", id, id, recipients);
        return id;
      });
    },
    openWithGroup(groupId, newId, now) {
      return write(async (tx) => {
        await tx`INSERT INTO conversations (id, group_id, created_at)
          VALUES (${newId}, ${groupId}, ${now}) ON CONFLICT (group_id) DO NOTHING`;
        const [row] = await tx<{ id: string }[]>`
          SELECT id FROM conversations WHERE group_id = ${groupId}`;
        const id = row!.id;
        const added = await tx<{ user_id: string }[]>`
          INSERT INTO memberships (user_id, conversation_id, contact_id)
          SELECT user_id, ${id}, NULL FROM group_members WHERE group_id = ${groupId}
          ORDER BY user_id ON CONFLICT DO NOTHING RETURNING user_id`;
        const recipients = added.map((row) => row.user_id);
        await appendEvent(tx, "conversation.created", id, id, recipients);
        return id;
      });
    },
    async markOpened(id, userId, now) {
      await write(async (tx) => {
        await tx`UPDATE memberships SET last_opened_at = ${now}
          WHERE user_id = ${userId} AND conversation_id = ${id}`;
        const read = await tx`UPDATE messages SET read_at = ${now}
          WHERE conversation_id = ${id} AND read_at IS NULL AND sender_id <> ${userId}`;
        await appendEvent(tx, "conversation.updated", id, id, [userId]);
        if (read.count > 0) {
          const mark = encodeReadMark({ readerId: userId, readAt: now });
          await appendEvent(tx, "messages.read", id, mark, "members");
        }
      });
    },
    async update(id, userId, changes) {
      await write(async (tx) => {
        if (changes.pinnedMessageId !== undefined) {
          await tx`UPDATE conversations SET pinned_message_id = ${changes.pinnedMessageId}
            WHERE id = ${id}`;
        }
        const own: Record<string, unknown> = {};
        if (changes.isPinned !== undefined) own.is_pinned = changes.isPinned;
        if (changes.isMuted !== undefined) own.is_muted = changes.isMuted;
        if (changes.archivedAt !== undefined) own.archived_at = changes.archivedAt;
        const columns = Object.keys(own);
        if (columns.length > 0) {
          await tx`UPDATE memberships SET ${tx(own as never, columns as never)}
            WHERE user_id = ${userId} AND conversation_id = ${id}`;
        }
        // The pinned message is everyone's; the rest is the user's own.
        const shared = changes.pinnedMessageId !== undefined;
        await appendEvent(tx, "conversation.updated", id, id, shared ? "members" : [userId]);
      });
    },
    async remove(id) {
      await write(async (tx) => {
        await appendEvent(tx, "conversation.deleted", id, id, "members");
        await tx`DELETE FROM conversations WHERE id = ${id}`;
      });
    },
    async members(id) {
      const rows = await sql<{ id: string; username: string }[]>`
        SELECT u.id, u.username FROM memberships ms JOIN users u ON u.id = ms.user_id
        WHERE ms.conversation_id = ${id} ORDER BY u.username`;
      return rows.map((row) => ({ ...row }));
    },
  };
}
