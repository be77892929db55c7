// Conversations as each member sees them: shared fields plus the member's own settings.
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { ConversationJson } from "../../wire.ts";
import type { ConversationFilter, Cursor, DemoData } from "../store.ts";

type Row = Omit<ConversationJson, "is_pinned" | "is_muted"> & {
  is_pinned: number;
  is_muted: number;
};

const SELECT = `
  SELECT c.id, ms.contact_id, c.group_id, c.pinned_message_id, ms.is_pinned, ms.is_muted,
         c.last_active_at, ms.last_opened_at, c.created_at, ms.archived_at
  FROM memberships ms JOIN conversations c ON c.id = ms.conversation_id`;

const FILTER = `
  ms.user_id = :user
  AND (:muted IS NULL OR ms.is_muted = :muted)
  AND (:pinned IS NULL OR ms.is_pinned = :pinned)
  AND (:archived IS NULL OR (ms.archived_at IS NOT NULL) = :archived)
  AND (:group IS NULL OR c.group_id = :group)`;

const ACTIVITY = "coalesce(c.last_active_at, c.created_at)";

const toJson = (row: Row): ConversationJson => ({
  id: row.id,
  contact_id: row.contact_id,
  group_id: row.group_id,
  pinned_message_id: row.pinned_message_id,
  is_pinned: row.is_pinned === 1,
  is_muted: row.is_muted === 1,
  last_active_at: row.last_active_at,
  last_opened_at: row.last_opened_at,
  created_at: row.created_at,
  archived_at: row.archived_at,
});

const flag = (value: boolean | undefined): number | null =>
  value === undefined ? null : value ? 1 : 0;

export function createConversationStore(db: DatabaseSync) {
  const visible = db.prepare(`${SELECT} WHERE ms.user_id = ? AND ms.conversation_id = ?`);
  const listFirst = db.prepare(
    `${SELECT} WHERE ${FILTER} ORDER BY ${ACTIVITY} DESC, c.id DESC LIMIT :limit`,
  );
  const listAfter = db.prepare(
    `${SELECT} WHERE ${FILTER} AND (${ACTIVITY}, c.id) < (:key, :id)
     ORDER BY ${ACTIVITY} DESC, c.id DESC LIMIT :limit`,
  );
  const listBefore = db.prepare(
    `${SELECT} WHERE ${FILTER} AND (${ACTIVITY}, c.id) > (:key, :id)
     ORDER BY ${ACTIVITY} ASC, c.id ASC LIMIT :limit`,
  );
  const isMember = db.prepare(
    "SELECT 1 AS found FROM memberships WHERE conversation_id = ? AND user_id = ?",
  );
  const anyConversation = db.prepare("SELECT 1 AS found FROM conversations LIMIT 1");
  const cursorKey = db.prepare(
    `SELECT ${ACTIVITY} AS key, c.id AS id FROM memberships ms
     JOIN conversations c ON c.id = ms.conversation_id
     WHERE ms.user_id = ? AND ms.conversation_id = ?`,
  );
  const byPair = db.prepare("SELECT id FROM conversations WHERE pair_key = ?");
  const byGroup = db.prepare("SELECT id FROM conversations WHERE group_id = ?");
  const insert = db.prepare(
    "INSERT INTO conversations (id, group_id, pair_key, created_at) VALUES (?, ?, ?, ?)",
  );
  const insertMembership = db.prepare(
    `INSERT OR IGNORE INTO memberships (user_id, conversation_id, contact_id) VALUES (?, ?, ?)`,
  );
  const insertRow = db.prepare(
    `INSERT INTO conversations (id, group_id, pair_key, pinned_message_id, last_active_at, created_at)
     VALUES (:id, :group_id, :pair_key, :pinned_message_id, :last_active_at, :created_at)`,
  );
  const insertMembershipRow = db.prepare(
    `INSERT INTO memberships
       (user_id, conversation_id, contact_id, is_pinned, is_muted, archived_at, last_opened_at)
     VALUES (:user_id, :conversation_id, :contact_id, :is_pinned, :is_muted, :archived_at,
       :last_opened_at)`,
  );
  const setPinned = db.prepare(
    "UPDATE memberships SET is_pinned = ? WHERE user_id = ? AND conversation_id = ?",
  );
  const setMuted = db.prepare(
    "UPDATE memberships SET is_muted = ? WHERE user_id = ? AND conversation_id = ?",
  );
  const setArchived = db.prepare(
    "UPDATE memberships SET archived_at = ? WHERE user_id = ? AND conversation_id = ?",
  );
  const setOpened = db.prepare(
    "UPDATE memberships SET last_opened_at = ? WHERE user_id = ? AND conversation_id = ?",
  );
  const markRead = db.prepare(
    `UPDATE messages SET read_at = ?
     WHERE conversation_id = ? AND read_at IS NULL AND sender_id <> ?`,
  );
  const setPinnedMessage = db.prepare(
    "UPDATE conversations SET pinned_message_id = ? WHERE id = ?",
  );
  const unpinMessage = db.prepare(
    "UPDATE conversations SET pinned_message_id = NULL WHERE pinned_message_id = ?",
  );
  const setActivity = db.prepare("UPDATE conversations SET last_active_at = ? WHERE id = ?");
  const recomputeActivity = db.prepare(
    `UPDATE conversations SET last_active_at =
       (SELECT max(created_at) FROM messages WHERE conversation_id = conversations.id)
     WHERE id = ?`,
  );
  const remove = db.prepare("DELETE FROM conversations WHERE id = ?");
  const members = db.prepare(
    `SELECT u.id, u.username FROM memberships ms JOIN users u ON u.id = ms.user_id
     WHERE ms.conversation_id = ? ORDER BY u.username`,
  );

  return {
    /** The conversation as `userId` sees it, or undefined when they are not a member. */
    visibleTo(id: string, userId: string): ConversationJson | undefined {
      const row = visible.get(userId, id) as Row | undefined;
      return row && toJson(row);
    },
    isMember: (id: string, userId: string) => isMember.get(id, userId) !== undefined,
    any: () => anyConversation.get() !== undefined,
    /** The sort key of a conversation the user sees, for a cursor. */
    cursor(id: string, userId: string): Cursor | undefined {
      return cursorKey.get(userId, id) as Cursor | undefined;
    },
    /** One more row than `limit` when there is more, in list order. */
    list(
      userId: string,
      filter: ConversationFilter,
      limit: number,
      page: { after?: Cursor; before?: Cursor },
    ): ConversationJson[] {
      const params: Record<string, SQLInputValue> = {
        user: userId,
        muted: flag(filter.muted),
        pinned: flag(filter.pinned),
        archived: flag(filter.archived),
        group: filter.groupId ?? null,
        limit,
      };
      const cursor = page.after ?? page.before;
      if (cursor) {
        params.key = cursor.key;
        params.id = cursor.id;
      }
      if (page.before) return (listBefore.all(params) as Row[]).map(toJson).reverse();
      return ((page.after ? listAfter : listFirst).all(params) as Row[]).map(toJson);
    },
    idForPair: (pairKey: string) => (byPair.get(pairKey) as { id: string } | undefined)?.id,
    idForGroup: (groupId: string) => (byGroup.get(groupId) as { id: string } | undefined)?.id,
    insert(id: string, target: { groupId: string } | { pairKey: string }, createdAt: number): void {
      insert.run(
        id,
        "groupId" in target ? target.groupId : null,
        "pairKey" in target ? target.pairKey : null,
        createdAt,
      );
    },
    insertRow: (row: DemoData["conversations"][number]) => insertRow.run(row),
    insertMembership: (row: DemoData["memberships"][number]) =>
      insertMembershipRow.run({
        ...row,
        is_pinned: row.is_pinned ? 1 : 0,
        is_muted: row.is_muted ? 1 : 0,
      }),
    /** True when the user was not a member before. */
    addMember(conversationId: string, userId: string, contactId: string | null): boolean {
      return insertMembership.run(userId, conversationId, contactId).changes > 0;
    },
    setPinned: (id: string, userId: string, value: boolean) =>
      setPinned.run(value ? 1 : 0, userId, id),
    setMuted: (id: string, userId: string, value: boolean) =>
      setMuted.run(value ? 1 : 0, userId, id),
    setArchived: (id: string, userId: string, at: number | null) => setArchived.run(at, userId, id),
    setOpened: (id: string, userId: string, at: number | null) => setOpened.run(at, userId, id),
    /** Marks the messages of others in the conversation as read by `userId`. */
    markRead: (id: string, userId: string, at: number) => markRead.run(at, id, userId),
    setPinnedMessage: (id: string, messageId: string | null) => setPinnedMessage.run(messageId, id),
    unpinMessage: (messageId: string) => unpinMessage.run(messageId),
    setActivity: (id: string, at: number) => setActivity.run(at, id),
    recomputeActivity: (id: string) => recomputeActivity.run(id),
    remove: (id: string) => remove.run(id),
    members: (id: string) => members.all(id) as { id: string; username: string }[],
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
