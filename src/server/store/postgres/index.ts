// The PostgreSQL store: any number of server instances on one database. What they must
// share is in the database (constraints and transactions keep it right under concurrency),
// and what they must hear of goes through LISTEN/NOTIFY: every write tells the others to
// drop their cached pages, and every message sent reaches the one instance that holds the
// demo replies' advisory lock.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { hashToken } from "../../tokens.ts";
import { DatabaseOpenError } from "../open-error.ts";
import {
  type Claim,
  IDEMPOTENCY_ABANDONED_SECONDS,
  IDEMPOTENCY_TTL_SECONDS,
  type RememberedResponse,
  type SentEvent,
  type Store,
} from "../store.ts";
import { conversationCursor, listConversations, visibleConversation } from "./conversations.ts";
import {
  getMessage,
  insertAttachments,
  listMessages,
  messageCursor,
  setReaction,
  updateMessage,
} from "./messages.ts";
import { MIGRATIONS } from "./migrations.ts";
import { connect, LOCK, PARLEY, type Q } from "./sql.ts";
import { accountStore, ensureDemoUsers, userById, userByTokenHash } from "./users.ts";

const CHANGED = "parley_changed";
const SENT = "parley_sent";
const SEEDED = "demo_seeded";
/** A user's request is written down at most this often per instance, in seconds. */
const PRESENCE_EVERY = 5;
const LEADER_RETRY_MS = 2000;

/**
 * What an operator can meet when the database is not there for us (refused, unknown host,
 * wrong password, no such database, a newer schema) as one line; the URL without its password.
 */
function openError(url: string, error: unknown): unknown {
  if (error instanceof DatabaseOpenError) return error;
  const { code, message } = error as { code?: string; message?: string };
  const known =
    /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|CONNECT_TIMEOUT)$/.test(
      code ?? "",
    ) || /^(28|3D|08|42501)/.test(code ?? "");
  if (!known) return error;
  let where = "the PostgreSQL database";
  try {
    const parsed = new URL(url);
    parsed.password = "";
    where = parsed.toString();
  } catch {}
  const why = (message ?? String(error)).split("\n")[0];
  return new DatabaseOpenError(`Cannot open the database ${where}: ${why} (${code}).`);
}

export type PostgresOptions = { poolSize?: number };

/** Brings the schema up to date: one instance at a time, each migration once. */
export async function migrate(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${PARLEY}, ${LOCK.migrate})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)`;
    const [row] = await tx<{ version: number }[]>`
      SELECT coalesce(max(version), 0)::integer AS version FROM schema_version`;
    const current = row?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new DatabaseOpenError(
        `The database has schema version ${current}, newer than this server knows (${MIGRATIONS.length}). Use a newer parley.`,
      );
    }
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
  let leader: postgres.ReservedSql | undefined;
  let leaderTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const sentListeners: ((event: SentEvent) => void)[] = [];
  const presenceWritten = new Map<string, number>();

  let serverId = "";
  try {
    await migrate(sql);
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
    await sql.listen(SENT, (payload) => {
      const event = JSON.parse(payload) as SentEvent;
      for (const listener of sentListeners) listener(event);
    });
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw openError(url, error);
  }

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

  /** Leads while this instance's session holds the lock; checks it still does. */
  async function tryLead(): Promise<void> {
    if (closed) return;
    if (leader) {
      try {
        // A connection that broke and came back has lost the lock with its old session.
        const held = await leader`
          SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
            AND pid = pg_backend_pid() AND classid = ${PARLEY} AND objid = ${LOCK.demoReplies}`;
        if (held.length > 0) return;
      } catch {}
      leader.release();
      leader = undefined;
    }
    const reserved = await sql.reserve();
    try {
      const [row] = await reserved<{ ok: boolean }[]>`
        SELECT pg_try_advisory_lock(${PARLEY}, ${LOCK.demoReplies}) AS ok`;
      if (row?.ok && !closed) {
        leader = reserved;
        return;
      }
    } catch {}
    reserved.release();
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
          await tx`INSERT INTO memberships (user_id, conversation_id, contact_id)
            VALUES (${a}, ${id}, ${b}), (${b}, ${id}, ${a}) ON CONFLICT DO NOTHING`;
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
          await tx`INSERT INTO memberships (user_id, conversation_id, contact_id)
            SELECT user_id, ${id}, NULL FROM group_members WHERE group_id = ${groupId}
            ORDER BY user_id ON CONFLICT DO NOTHING`;
          return id;
        });
      },
      async markOpened(id, userId, now) {
        await write(async (tx) => {
          await tx`UPDATE memberships SET last_opened_at = ${now}
            WHERE user_id = ${userId} AND conversation_id = ${id}`;
          await tx`UPDATE messages SET read_at = ${now}
            WHERE conversation_id = ${id} AND read_at IS NULL AND sender_id <> ${userId}`;
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
        });
      },
      async remove(id) {
        await write((tx) => tx`DELETE FROM conversations WHERE id = ${id}`);
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
      async send(message, attachments) {
        if (attachments.length === 0) {
          // The common case in one statement (one round trip, atomic by itself).
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
              )
              SELECT pg_notify(${CHANGED}, ${instance}) FROM activity`;
          } finally {
            own++;
          }
          return;
        }
        await write(async (tx) => {
          await tx`INSERT INTO messages (id, conversation_id, sender_id, body, created_at)
            VALUES (${message.id}, ${message.conversationId}, ${message.senderId},
              ${message.body}, ${message.createdAt})`;
          await insertAttachments(tx, message.id, attachments, message.createdAt);
          // Instances' clocks differ a little: the activity never moves back.
          await tx`UPDATE conversations
            SET last_active_at = greatest(coalesce(last_active_at, 0), ${message.createdAt})
            WHERE id = ${message.conversationId}`;
        });
      },
      async update(id, changes) {
        await write((tx) => updateMessage(tx, id, changes));
      },
      async addReaction(id, name, username) {
        await write(async (tx) => {
          await tx`SELECT id FROM messages WHERE id = ${id} FOR UPDATE`;
          const [row] = await tx<{ usernames: string[] }[]>`
            SELECT usernames FROM reactions WHERE message_id = ${id} AND name = ${name}`;
          const current = row?.usernames ?? [];
          if (!current.includes(username)) await setReaction(tx, id, name, [...current, username]);
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
        });
      },
    },
    idempotency: {
      async claim(userId, key, fingerprint, now): Promise<Claim> {
        for (;;) {
          // The primary key decides between instances: one insert (or take-over of an
          // expired or abandoned row) wins, everyone else reads the row that won.
          const claimed = await sql`
            INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at)
            VALUES (${userId}, ${key}, ${fingerprint}, 0, '', ${now})
            ON CONFLICT (user_id, key) DO UPDATE
              SET fingerprint = excluded.fingerprint, status = 0, body = '',
                  created_at = excluded.created_at
              WHERE (idempotency_keys.status = 0
                     AND idempotency_keys.created_at <= ${now - IDEMPOTENCY_ABANDONED_SECONDS})
                 OR (idempotency_keys.status <> 0
                     AND idempotency_keys.created_at <= ${now - IDEMPOTENCY_TTL_SECONDS})
            RETURNING 1`;
          if (claimed.length > 0) return { state: "claimed" };
          const [row] = await sql<RememberedResponse[]>`
            SELECT fingerprint, status, body FROM idempotency_keys
            WHERE user_id = ${userId} AND key = ${key}`;
          if (!row) continue; // released in between: try again
          if (row.status === 0) return { state: "pending", fingerprint: row.fingerprint };
          const { status, body } = row;
          return { state: "done", response: { fingerprint: row.fingerprint, status, body } };
        }
      },
      async complete(userId, key, response, now) {
        await sql`UPDATE idempotency_keys
          SET status = ${response.status}, body = ${response.body}, created_at = ${now}
          WHERE user_id = ${userId} AND key = ${key}`;
        if (Math.random() < 0.01) {
          await sql`DELETE FROM idempotency_keys
            WHERE created_at <= ${now - IDEMPOTENCY_TTL_SECONDS}`;
        }
      },
      async release(userId, key) {
        await sql`DELETE FROM idempotency_keys
          WHERE user_id = ${userId} AND key = ${key} AND status = 0`;
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
    isLeader: () => leader !== undefined,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(leaderTimer);
      leader?.release();
      await sql.end({ timeout: 2 });
    },
  };
  return store;
}
