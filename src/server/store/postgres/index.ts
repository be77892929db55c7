// The PostgreSQL store: any number of server instances on one database. What they must
// share is in the database (constraints and transactions keep it right under concurrency),
// and what they must hear of goes through LISTEN/NOTIFY: every write tells the others to
// drop their cached pages, and every message sent reaches the one instance that holds the
// demo replies' advisory lock.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { hashToken } from "../../tokens.ts";
import { newerSchema } from "../errors.ts";
import type { SentEvent, Store } from "../store.ts";
import { conversationCursor, listConversations, visibleConversation } from "./conversations.ts";
import {
  appendEvent,
  appendEvents,
  EVENTS,
  eventBounds,
  eventsAfter,
  pruneEvents,
  tokenOwners,
} from "./events.ts";
import { completeClaim, createIdempotency, holdOwnerLock, type Owner } from "./idempotency.ts";
import {
  getMessage,
  insertAttachments,
  listMessages,
  messageCursor,
  setReaction,
  updateMessage,
} from "./messages.ts";
import { MIGRATIONS } from "./migrations.ts";
import { connect, LOCK, PARLEY, type Q, session, unreachable } from "./sql.ts";
import { accountStore, ensureDemoUsers, userById, userByTokenHash } from "./users.ts";

const CHANGED = "parley_changed";
const SENT = "parley_sent";
const SEEDED = "demo_seeded";
/** A user's request is written down at most this often per instance, in seconds. */
const PRESENCE_EVERY = 5;
const LEADER_RETRY_MS = 2000;

export type PostgresOptions = { poolSize?: number };

/** Brings the schema up to date: one instance at a time, each migration once. */
export async function migrate(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${PARLEY}, ${LOCK.migrate})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)`;
    const [row] = await tx<{ version: number }[]>`
      SELECT coalesce(max(version), 0)::integer AS version FROM schema_version`;
    const current = row?.version ?? 0;
    if (current > MIGRATIONS.length) throw newerSchema(current, MIGRATIONS.length);
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await tx.unsafe(MIGRATIONS[version - 1]!);
      await tx`INSERT INTO schema_version (version) VALUES (${version})`;
    }
  });
}

export async function openPostgresStore(
  url: string,
  options: PostgresOptions = {},
): Promise<Store> {
  const sql = connect(url, options.poolSize ?? 10);
  const instance = randomUUID();
  // Page cache version: this instance's writes (counted before and after each), and the
  // notices of other instances' commits.
  let own = 0;
  let others = 0;
  let leader = false;
  let leaderSql: postgres.Sql | undefined;
  let leaderTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const sentListeners: ((event: SentEvent) => void)[] = [];
  const appendedListeners: (() => void)[] = [];
  const presenceWritten = new Map<string, number>();
  let claims: Owner | undefined;

  let serverId = "";
  try {
    await migrate(sql);
    claims = await holdOwnerLock(url);
    const [row] = await sql<{ value: string }[]>`SELECT value FROM meta WHERE key = 'server_id'`;
    serverId = row!.value;
    await sql.listen(
      CHANGED,
      (payload) => {
        if (payload !== instance) others++;
      },
      // (Re)connected: notices may have been missed meanwhile, so the cache starts over.
      () => others++,
    );
    const appended = () => {
      for (const listener of appendedListeners) listener();
    };
    // (Re)connected too: events may have been appended meanwhile.
    await sql.listen(EVENTS, appended, appended);
    await sql.listen(SENT, (payload) => {
      const event = JSON.parse(payload) as SentEvent;
      for (const listener of sentListeners) listener(event);
    });
  } catch (error) {
    await claims?.release();
    await sql.end({ timeout: 1 });
    throw unreachable(url, error);
  }
  const owner = claims;
  const idempotency = createIdempotency(sql, owner);

  /** A write in one transaction; the other instances hear of it when it commits. */
  async function write<T>(fn: (tx: Q) => Promise<T>): Promise<T> {
    own++;
    try {
      return (await sql.begin(async (tx) => {
        const result = await fn(tx);
        await tx`SELECT pg_notify(${CHANGED}, ${instance})`;
        return result;
      })) as T;
    } finally {
      own++;
    }
  }

  /**
   * Leads while this instance's own session holds the lock. Asked again every few
   * seconds: a session that holds it already gets true (the lock is re-entrant), one that
   * broke comes back without it and competes again. A connection of its own, not a
   * reserved one from the pool: postgres.js crashes the process on a query to a reserved
   * connection whose socket has closed.
   */
  async function tryLead(): Promise<void> {
    if (closed) return;
    leaderSql ??= session(url);
    try {
      const [row] = await leaderSql<{ ok: boolean }[]>`
        SELECT pg_try_advisory_lock(${PARLEY}, ${LOCK.demoReplies}) AS ok`;
      leader = row?.ok === true && !closed;
    } catch {
      leader = false;
    }
  }

  const store: Store = {
    kind: "postgres",
    serverId,
    users: {
      byTokenHash: (hash) => userByTokenHash(sql, hash),
      byId: (id) => userById(sql, id),
      async touch(id, now) {
        await write(
          (tx) => tx`UPDATE users SET last_active_at = ${now}
            WHERE id = ${id} AND coalesce(last_active_at, 0) < ${now}`,
        );
      },
      async isGroupMember(groupId, userId) {
        const rows = await sql`
          SELECT 1 FROM group_members WHERE group_id = ${groupId} AND user_id = ${userId}`;
        return rows.length > 0;
      },
      ensure: (list) => ensureDemoUsers(sql, write, list, hashToken),
    },
    accounts: accountStore(sql, write),
    conversations: {
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
          const read = await tx<{ id: string }[]>`UPDATE messages SET read_at = ${now}
            WHERE conversation_id = ${id} AND read_at IS NULL AND sender_id <> ${userId}
            RETURNING id`;
          await appendEvent(tx, "conversation.updated", id, id, [userId]);
          await appendEvents(
            tx,
            "message.updated",
            id,
            read.map((message) => message.id),
          );
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
    },
    messages: {
      get: (id) => getMessage(sql, id),
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
          own++;
          try {
            await sql`
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
              SELECT pg_notify(${CHANGED}, ${instance}), pg_notify(${EVENTS}, '') FROM event`;
          } finally {
            own++;
          }
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
          const [row] = await tx<{ usernames: string[] }[]>`
            SELECT usernames FROM reactions WHERE message_id = ${id} AND name = ${name}`;
          const current = row?.usernames ?? [];
          if (!message || current.includes(username)) return;
          await setReaction(tx, id, name, [...current, username]);
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
    },
    idempotency,
    events: {
      after: (afterId, limit, userId) => eventsAfter(sql, afterId, limit, userId),
      bounds: () => eventBounds(sql),
      prune: (keptSeconds, keptCount) => pruneEvents(sql, keptSeconds, keptCount),
      tokenOwners: (tokens) => tokenOwners(sql, tokens),
      onAppended(listener) {
        appendedListeners.push(listener);
      },
    },
    demo: {
      async seedOnce(build) {
        await write(async (tx) => {
          await tx`SELECT pg_advisory_xact_lock(${PARLEY}, ${LOCK.seed})`;
          const seeded = await tx`SELECT 1 FROM meta WHERE key = ${SEEDED}`;
          const any = await tx`SELECT 1 FROM conversations LIMIT 1`;
          if (seeded.length > 0 || any.length > 0) return;
          const data = build();
          const insert = async (table: string, rows: object[]) => {
            if (rows.length > 0) await tx`INSERT INTO ${tx(table)} ${tx(rows as never[])}`;
          };
          await insert(
            "groups",
            data.groups.map(({ id, name, created_at }) => ({ id, name, created_at })),
          );
          await insert(
            "group_members",
            data.groups.flatMap((g) => g.members.map((user_id) => ({ group_id: g.id, user_id }))),
          );
          await insert("conversations", data.conversations);
          await insert("memberships", data.memberships);
          await insert("messages", data.messages);
          await insert("attachments", data.attachments);
          await insert(
            "reactions",
            data.reactions.map((r) => ({ ...r, usernames: tx.json(r.usernames) })),
          );
          for (const [id, at] of Object.entries(data.activity)) {
            await tx`UPDATE users SET last_active_at = ${at}
              WHERE id = ${id} AND coalesce(last_active_at, 0) < ${at}`;
          }
          await tx`INSERT INTO meta (key, value) VALUES (${SEEDED}, '1')`;
        });
      },
    },
    presence: {
      async seen(userId, now) {
        const last = presenceWritten.get(userId);
        if (last !== undefined && now - last < PRESENCE_EVERY && now >= last) return;
        presenceWritten.set(userId, now);
        await sql`INSERT INTO presence (user_id, seen_at) VALUES (${userId}, ${now})
          ON CONFLICT (user_id) DO UPDATE SET seen_at = greatest(presence.seen_at, excluded.seen_at)`;
      },
      async lastSeen(userId) {
        const [row] = await sql<{ seen_at: number }[]>`
          SELECT seen_at FROM presence WHERE user_id = ${userId}`;
        return row?.seen_at;
      },
    },
    version: () => `${own}.${others}`,
    publishSent(event) {
      sql.notify(SENT, JSON.stringify(event)).catch(() => {});
    },
    onSent(listener) {
      sentListeners.push(listener);
      // Someone will answer: take part in choosing who.
      if (!leaderTimer) {
        void tryLead();
        leaderTimer = setInterval(() => void tryLead(), LEADER_RETRY_MS);
        leaderTimer.unref();
      }
    },
    isLeader: () => leader,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(leaderTimer);
      leader = false;
      await leaderSql?.end({ timeout: 1 });
      await Promise.all([owner.release(), sql.end({ timeout: 2 })]);
    },
  };
  return store;
}
