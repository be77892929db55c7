// Messages in PostgreSQL, with their sender, reactions and attachments. A page takes the
// messages, then the senders, reactions and attachments of all of them at once.
import type { AttachmentJson, ContactJson, MessageJson } from "../../wire.ts";
import { assembleMessages } from "../assemble.ts";
import { reactionWrites, type StoredReaction } from "../reactions.ts";
import type {
  Cursor,
  MessageChanges,
  MessageRow,
  MessageScope,
  NewAttachment,
  Page,
  Store,
} from "../store.ts";
import { appendEvent, EVENTS } from "./events.ts";
import { completeClaim, type Owner } from "./idempotency.ts";
import { LOCK, PARLEY, type Q, type Write, type WriteOne } from "./sql.ts";

const COLUMNS =
  "m.id, m.conversation_id, m.sender_id, m.body, m.read_at, m.created_at, m.updated_at";

async function listMessages(
  q: Q,
  scope: MessageScope,
  limit: number,
  page: Page,
): Promise<MessageJson[]> {
  const inScope =
    "conversationId" in scope
      ? q`m.conversation_id = ${scope.conversationId}`
      : q`m.conversation_id IN (SELECT conversation_id FROM memberships WHERE user_id = ${scope.userId})`;
  let rows: MessageRow[];
  if (page.before) {
    rows = await q<MessageRow[]>`
      SELECT ${q.unsafe(COLUMNS)} FROM messages m
      WHERE ${inScope} AND (m.created_at, m.id) > (${page.before.key}, ${page.before.id})
      ORDER BY m.created_at ASC, m.id ASC LIMIT ${limit}`;
    rows.reverse();
  } else {
    const older = page.after
      ? q`AND (m.created_at, m.id) < (${page.after.key}, ${page.after.id})`
      : q``;
    rows = await q<MessageRow[]>`
      SELECT ${q.unsafe(COLUMNS)} FROM messages m WHERE ${inScope} ${older}
      ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit}`;
  }
  return hydrate(q, rows);
}

async function getMessage(q: Q, id: string): Promise<MessageJson | undefined> {
  const rows = await q<
    MessageRow[]
  >`SELECT ${q.unsafe(COLUMNS)} FROM messages m WHERE m.id = ${id}`;
  return (await hydrate(q, rows))[0];
}

async function getMessages(q: Q, ids: readonly string[]): Promise<Map<string, MessageJson>> {
  if (ids.length === 0) return new Map();
  const rows = await q<MessageRow[]>`
    SELECT ${q.unsafe(COLUMNS)} FROM messages m WHERE m.id = ANY(${ids as string[]})`;
  return new Map((await hydrate(q, rows)).map((message) => [message.id, message]));
}

async function messageCursor(q: Q, id: string, scope: MessageScope): Promise<Cursor | undefined> {
  const [row] =
    "conversationId" in scope
      ? await q<Cursor[]>`SELECT created_at AS key, id FROM messages
          WHERE id = ${id} AND conversation_id = ${scope.conversationId}`
      : await q<Cursor[]>`SELECT m.created_at AS key, m.id FROM messages m
          JOIN memberships ms ON ms.conversation_id = m.conversation_id AND ms.user_id = ${scope.userId}
          WHERE m.id = ${id}`;
  return row;
}

async function hydrate(q: Q, rows: MessageRow[]): Promise<MessageJson[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const senderIds = [...new Set(rows.map((row) => row.sender_id))];
  const [reactionRows, attachmentRows, senderRows] = await Promise.all([
    q<{ message_id: string; name: string; usernames: string[] }[]>`
      SELECT message_id, name, usernames FROM reactions
      WHERE message_id = ANY(${ids}::text[]) ORDER BY message_id, position`,
    q<AttachmentJson[]>`
      SELECT id, message_id, filename, file_url, file_type, file_size, created_at FROM attachments
      WHERE message_id = ANY(${ids}::text[]) ORDER BY message_id, id`,
    q<ContactJson[]>`
      SELECT id, username, phone_number, avatar_url, last_active_at, created_at FROM users
      WHERE id = ANY(${senderIds}::text[])`,
  ]);
  return assembleMessages(rows, senderRows, reactionRows, attachmentRows);
}

async function insertAttachments(
  q: Q,
  messageId: string,
  list: readonly NewAttachment[],
  createdAt: number,
): Promise<void> {
  if (list.length === 0) return;
  const rows = list.map((a) => ({ ...a, message_id: messageId, created_at: createdAt }));
  await q`INSERT INTO attachments ${q(rows, "id", "message_id", "filename", "file_url", "file_type", "file_size", "created_at")}`;
}

/** The message's reactions and what `reactor`'s changes write; the message row is locked. */
async function writeReactions(
  q: Q,
  id: string,
  changes: readonly (readonly [name: string, on: boolean])[],
  reactor: string,
): Promise<boolean> {
  const current = await q<StoredReaction[]>`
    SELECT name, position, usernames FROM reactions WHERE message_id = ${id}`;
  const writes = reactionWrites(current, changes, reactor);
  for (const r of writes.set) {
    await q`
      INSERT INTO reactions (message_id, name, position, usernames)
      VALUES (${id}, ${r.name}, ${r.position}, ${q.json(r.usernames)})
      ON CONFLICT (message_id, name) DO UPDATE SET usernames = excluded.usernames`;
  }
  if (writes.remove.length > 0) {
    await q`DELETE FROM reactions WHERE message_id = ${id} AND name = ANY(${writes.remove}::text[])`;
  }
  return writes.set.length + writes.remove.length > 0;
}

/** In a transaction: the message row is locked, so changes to one message follow each other. */
async function updateMessage(q: Q, id: string, changes: MessageChanges): Promise<void> {
  await q`SELECT id FROM messages WHERE id = ${id} FOR UPDATE`;
  if (changes.body !== undefined) {
    await q`UPDATE messages SET body = ${changes.body}, updated_at = ${changes.at} WHERE id = ${id}`;
  }
  if (changes.reactions.length > 0) {
    await writeReactions(q, id, changes.reactions, changes.reactor);
  }
  await insertAttachments(q, id, changes.attachments, changes.at);
}

export function createMessageStore(
  sql: Q,
  write: Write,
  writeOne: WriteOne,
  owner: Owner,
): Store["messages"] {
  return {
    get: (id) => getMessage(sql, id),
    getMany: (ids) => getMessages(sql, ids),
    async head(id) {
      const [row] = await sql<
        { id: string; conversation_id: string; sender_id: string; body: string }[]
      >`SELECT id, conversation_id, sender_id, body FROM messages WHERE id = ${id}`;
      return row && { ...row };
    },
    cursor: (id, scope) => messageCursor(sql, id, scope),
    list: (scope, limit, page) => listMessages(sql, scope, limit, page),
    async send(message, attachments, answer) {
      if (attachments.length === 0 && !answer) {
        // The common case in one statement (one round trip, atomic by itself). The event
        // takes its id after the events lock (events.ts): `event` reads from `lock`.
        await writeOne(
          (changed) => sql`
            WITH sent AS (
              INSERT INTO messages (id, conversation_id, sender_id, body, created_at)
              VALUES (${message.id}, ${message.conversationId}, ${message.senderId},
                ${message.body}, ${message.createdAt})
              RETURNING conversation_id, created_at
            ), activity AS (
              UPDATE conversations c
              SET last_active_at = greatest(coalesce(c.last_active_at, 0), sent.created_at)
              FROM sent WHERE c.id = sent.conversation_id
              RETURNING c.id
            ), lock AS (
              SELECT pg_advisory_xact_lock(${PARLEY}, ${LOCK.events}) FROM activity
            ), event AS (
              INSERT INTO events (type, conversation_id, resource_id, recipients)
              SELECT 'message.created', ${message.conversationId}, ${message.id},
                (SELECT coalesce(array_agg(user_id), '{}') FROM memberships
                 WHERE conversation_id = ${message.conversationId})
              FROM lock
              RETURNING id
            )
            SELECT ${changed}, pg_notify(${EVENTS}, '') FROM event`,
        );
        return true;
      }
      return write(async (tx) => {
        if (answer && !(await completeClaim(tx, owner, answer))) return false;
        await tx`INSERT INTO messages (id, conversation_id, sender_id, body, created_at)
          VALUES (${message.id}, ${message.conversationId}, ${message.senderId},
            ${message.body}, ${message.createdAt})`;
        await insertAttachments(tx, message.id, attachments, message.createdAt);
        // Instances' clocks differ a little: the activity never moves back.
        await tx`UPDATE conversations
          SET last_active_at = greatest(coalesce(last_active_at, 0), ${message.createdAt})
          WHERE id = ${message.conversationId}`;
        await appendEvent(tx, "message.created", message.conversationId, message.id, "members");
        return true;
      });
    },
    async update(id, changes) {
      await write(async (tx) => {
        await updateMessage(tx, id, changes);
        const [row] = await tx<{ conversation_id: string }[]>`
          SELECT conversation_id FROM messages WHERE id = ${id}`;
        if (row) await appendEvent(tx, "message.updated", row.conversation_id, id, "members");
      });
    },
    async addReaction(id, name, username) {
      await write(async (tx) => {
        const [message] = await tx<{ conversation_id: string }[]>`
          SELECT conversation_id FROM messages WHERE id = ${id} FOR UPDATE`;
        if (!message || !(await writeReactions(tx, id, [[name, true]], username))) return;
        await appendEvent(tx, "message.updated", message.conversation_id, id, "members");
      });
    },
    async remove(head) {
      await write(async (tx) => {
        await tx`DELETE FROM messages WHERE id = ${head.id}`;
        await tx`UPDATE conversations SET pinned_message_id = NULL
          WHERE pinned_message_id = ${head.id}`;
        await tx`UPDATE conversations SET last_active_at =
            (SELECT max(created_at) FROM messages WHERE conversation_id = ${head.conversation_id})
          WHERE id = ${head.conversation_id}`;
        const conversationId = head.conversation_id;
        await appendEvent(tx, "message.deleted", conversationId, head.id, "members");
        // Its activity moved back, and it may have been the pinned message.
        await appendEvent(tx, "conversation.updated", conversationId, conversationId, "members");
      });
    },
  };
}
