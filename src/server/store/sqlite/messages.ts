// Messages with their sender, reactions and attachments. A page takes three queries
// (messages, then the reactions and attachments of all of them), never one per message.
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { AttachmentJson, ContactJson, MessageJson } from "../../wire.ts";
import { assembleMessages } from "../assemble.ts";
import type { ReactionWrites, StoredReaction } from "../reactions.ts";
import type {
  Cursor,
  DemoData,
  MessageHead,
  MessageRow,
  MessageScope,
  NewAttachment,
} from "../store.ts";

type Row = MessageRow;

// Senders are read separately: a page has few of them, and joining them into every row
// costs more than the extra query.
const SELECT = `
  SELECT m.id, m.conversation_id, m.sender_id, m.body, m.read_at, m.created_at, m.updated_at
  FROM messages m`;

const IN_CONVERSATION = "m.conversation_id = :conversation";
const OF_USER =
  "m.conversation_id IN (SELECT conversation_id FROM memberships WHERE user_id = :user)";
const NEWEST_FIRST = "ORDER BY m.created_at DESC, m.id DESC LIMIT :limit";
const OLDEST_FIRST = "ORDER BY m.created_at ASC, m.id ASC LIMIT :limit";
const OLDER = "(m.created_at, m.id) < (:key, :id)";
const NEWER = "(m.created_at, m.id) > (:key, :id)";

export function createMessageStore(db: DatabaseSync) {
  const one = db.prepare(`${SELECT} WHERE m.id = ?`);
  const many = db.prepare(`${SELECT} WHERE m.id IN (SELECT value FROM json_each(?))`);
  const head = db.prepare("SELECT id, conversation_id, sender_id, body FROM messages WHERE id = ?");
  const list = {
    conversation: {
      first: db.prepare(`${SELECT} WHERE ${IN_CONVERSATION} ${NEWEST_FIRST}`),
      after: db.prepare(`${SELECT} WHERE ${IN_CONVERSATION} AND ${OLDER} ${NEWEST_FIRST}`),
      before: db.prepare(`${SELECT} WHERE ${IN_CONVERSATION} AND ${NEWER} ${OLDEST_FIRST}`),
    },
    user: {
      first: db.prepare(`${SELECT} WHERE ${OF_USER} ${NEWEST_FIRST}`),
      after: db.prepare(`${SELECT} WHERE ${OF_USER} AND ${OLDER} ${NEWEST_FIRST}`),
      before: db.prepare(`${SELECT} WHERE ${OF_USER} AND ${NEWER} ${OLDEST_FIRST}`),
    },
  };
  const sendersOf = db.prepare(
    `SELECT id, username, phone_number, avatar_url, last_active_at, created_at FROM users
     WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const reactionsOf = db.prepare(
    `SELECT message_id, name, usernames FROM reactions
     WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, position`,
  );
  const attachmentsOf = db.prepare(
    `SELECT id, message_id, filename, file_url, file_type, file_size, created_at FROM attachments
     WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, id`,
  );
  const insert = db.prepare(
    `INSERT INTO messages (id, conversation_id, sender_id, body, read_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertAttachment = db.prepare(
    `INSERT INTO attachments (id, message_id, filename, file_url, file_type, file_size, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertRow = db.prepare(
    `INSERT INTO messages (id, conversation_id, sender_id, body, read_at, created_at)
     VALUES (:id, :conversation_id, :sender_id, :body, :read_at, :created_at)`,
  );
  const insertAttachmentRow = db.prepare(
    `INSERT INTO attachments (id, message_id, filename, file_url, file_type, file_size, created_at)
     VALUES (:id, :message_id, :filename, :file_url, :file_type, :file_size, :created_at)`,
  );
  const insertReactionRow = db.prepare(
    `INSERT INTO reactions (message_id, name, position, usernames)
     VALUES (:message_id, :name, :position, :usernames)`,
  );
  const setBody = db.prepare("UPDATE messages SET body = ? WHERE id = ?");
  const setUpdated = db.prepare("UPDATE messages SET updated_at = ? WHERE id = ?");
  const reactionsOfOne = db.prepare(
    "SELECT name, position, usernames FROM reactions WHERE message_id = ?",
  );
  const putReaction = db.prepare(
    `INSERT INTO reactions (message_id, name, position, usernames) VALUES (?, ?, ?, ?)
     ON CONFLICT (message_id, name) DO UPDATE SET usernames = excluded.usernames`,
  );
  const deleteReaction = db.prepare("DELETE FROM reactions WHERE message_id = ? AND name = ?");
  const remove = db.prepare("DELETE FROM messages WHERE id = ?");
  const cursorIn = db.prepare(
    "SELECT created_at AS key, id FROM messages WHERE id = ? AND conversation_id = ?",
  );
  const cursorOf = db.prepare(
    `SELECT m.created_at AS key, m.id FROM messages m
     JOIN memberships ms ON ms.conversation_id = m.conversation_id AND ms.user_id = ?
     WHERE m.id = ?`,
  );

  function hydrate(rows: Row[]): MessageJson[] {
    if (rows.length === 0) return [];
    const ids = JSON.stringify(rows.map((row) => row.id));
    const reactions = (
      reactionsOf.all(ids) as { message_id: string; name: string; usernames: string }[]
    ).map((r) => ({ ...r, usernames: JSON.parse(r.usernames) as string[] }));
    const senderIds = JSON.stringify([...new Set(rows.map((row) => row.sender_id))]);
    return assembleMessages(
      rows,
      sendersOf.all(senderIds) as ContactJson[],
      reactions,
      attachmentsOf.all(ids) as AttachmentJson[],
    );
  }

  return {
    get(id: string): MessageJson | undefined {
      const row = one.get(id) as Row | undefined;
      return row && hydrate([row])[0];
    },
    getMany(ids: readonly string[]): Map<string, MessageJson> {
      const found = hydrate(many.all(JSON.stringify(ids)) as Row[]);
      return new Map(found.map((message) => [message.id, message]));
    },
    head: (id: string) => head.get(id) as MessageHead | undefined,
    /** The sort key of a message within the scope, for a cursor. */
    cursor(id: string, scope: MessageScope): Cursor | undefined {
      return (
        "conversationId" in scope
          ? cursorIn.get(id, scope.conversationId)
          : cursorOf.get(scope.userId, id)
      ) as Cursor | undefined;
    },
    /** Newest first; one more row than `limit` when there is more. */
    list(
      scope: MessageScope,
      limit: number,
      page: { after?: Cursor; before?: Cursor },
    ): MessageJson[] {
      const statements = "conversationId" in scope ? list.conversation : list.user;
      const params: Record<string, SQLInputValue> =
        "conversationId" in scope
          ? { conversation: scope.conversationId, limit }
          : { user: scope.userId, limit };
      if (page.before) {
        const rows = statements.before.all({ ...params, ...page.before }) as Row[];
        return hydrate(rows.reverse());
      }
      if (page.after) return hydrate(statements.after.all({ ...params, ...page.after }) as Row[]);
      return hydrate(statements.first.all(params) as Row[]);
    },
    insert(message: {
      id: string;
      conversationId: string;
      senderId: string;
      body: string;
      createdAt: number;
      readAt?: number | null;
    }): void {
      insert.run(
        message.id,
        message.conversationId,
        message.senderId,
        message.body,
        message.readAt ?? null,
        message.createdAt,
      );
    },
    insertRow: (row: DemoData["messages"][number]) => insertRow.run(row),
    insertAttachmentRow: (row: DemoData["attachments"][number]) => insertAttachmentRow.run(row),
    insertReactionRow: (row: DemoData["reactions"][number]) =>
      insertReactionRow.run({ ...row, usernames: JSON.stringify(row.usernames) }),
    addAttachments(messageId: string, list: readonly NewAttachment[], createdAt: number): void {
      for (const a of list) {
        insertAttachment.run(
          a.id,
          messageId,
          a.filename,
          a.file_url,
          a.file_type,
          a.file_size,
          createdAt,
        );
      }
    },
    setBody: (id: string, body: string) => setBody.run(body, id),
    setUpdated: (id: string, at: number) => setUpdated.run(at, id),
    /** The message's reactions, in no particular order. */
    reactionsOf(id: string): StoredReaction[] {
      const rows = reactionsOfOne.all(id) as {
        name: string;
        position: number;
        usernames: string;
      }[];
      return rows.map((r) => ({ ...r, usernames: JSON.parse(r.usernames) as string[] }));
    },
    writeReactions(id: string, writes: ReactionWrites): void {
      for (const r of writes.set) {
        putReaction.run(id, r.name, r.position, JSON.stringify(r.usernames));
      }
      for (const name of writes.remove) deleteReaction.run(id, name);
    },
    remove: (id: string) => remove.run(id),
  };
}

export type MessageStore = ReturnType<typeof createMessageStore>;
