// Users, their tokens (as hashes) and groups on PostgreSQL: the demo's users, and what
// `parley users` / `parley groups` and the contact search need.
import {
  type AccessEnd,
  type Account,
  type DemoToken,
  encodeAccessEnd,
  type GroupInfo,
  type NewUser,
  type Store,
  type TokenInfo,
  type User,
} from "../store.ts";
import { appendEvent } from "./events.ts";
import { LOCK, PARLEY, type Q, type Write } from "./sql.ts";

/** As a transaction's last statements: every instance ends the person's streams (hub.ts). */
const accessEnded = (tx: Q, id: string, end: AccessEnd) =>
  appendEvent(tx, "access.ended", "", encodeAccessEnd(end), [id]);

const copy = <T extends object>(rows: readonly T[]): T[] => rows.map((row) => ({ ...row }));

async function idOf(tx: Q, username: string): Promise<string | undefined> {
  return (await personOf(tx, username))?.id;
}

async function personOf(
  tx: Q,
  username: string,
): Promise<{ id: string; removed: boolean } | undefined> {
  const [row] = await tx<{ id: string; removed: boolean }[]>`
    SELECT id, removed_at IS NOT NULL AS removed FROM users WHERE username = ${username}`;
  return row && { id: row.id, removed: row.removed };
}

async function userByTokenHash(sql: Q, hash: string): Promise<User | undefined> {
  const [user] = await sql<User[]>`
    SELECT u.id, u.username, u.phone_number, u.avatar_url, u.last_active_at, u.created_at
    FROM tokens t JOIN users u ON u.id = t.user_id
    WHERE t.hash = ${hash} AND u.removed_at IS NULL
      AND (t.expires_at IS NULL OR t.expires_at > extract(epoch FROM now()))`;
  return user && { ...user };
}

async function userById(sql: Q, id: string): Promise<User | undefined> {
  const [user] = await sql<User[]>`
    SELECT id, username, phone_number, avatar_url, last_active_at, created_at
    FROM users WHERE id = ${id}`;
  return user && { ...user };
}

/** The demo users (with their tokens' hashes, if given), once, when there are no users at all. */
async function ensureDemoUsers(
  sql: Q,
  write: Write,
  list: readonly (NewUser & { tokenHash: string | null })[],
): Promise<DemoToken[]> {
  await write(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${PARLEY}, ${LOCK.seed})`;
    const [row] = await tx<{ n: number }[]>`SELECT count(*)::integer AS n FROM users`;
    if ((row?.n ?? 0) > 0) return;
    if (list.length === 0) return;
    const users = list.map(({ tokenHash: _, ...user }) => ({
      ...user,
      last_active_at: user.last_active_at ?? null,
    }));
    await tx`INSERT INTO users ${tx(users, "id", "username", "phone_number", "avatar_url", "last_active_at", "created_at")}`;
    const tokens = list.flatMap((u) =>
      u.tokenHash
        ? [{ hash: u.tokenHash, user_id: u.id, created_at: u.created_at, name: "default" }]
        : [],
    );
    if (tokens.length > 0) {
      await tx`INSERT INTO tokens ${tx(tokens, "hash", "user_id", "created_at", "name")}`;
    }
    // demo_tokens.token is left empty (migration 5): a row marks a demo user, no more.
    const demo = list.map((u) => ({ user_id: u.id, token: "" }));
    await tx`INSERT INTO demo_tokens ${tx(demo, "user_id", "token")}`;
  });
  return copy(
    await sql<DemoToken[]>`
      SELECT u.id, u.username FROM demo_tokens d JOIN users u ON u.id = d.user_id
      ORDER BY u.created_at, u.id`,
  );
}

export function createUserStore(sql: Q, write: Write): Store["users"] {
  return {
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
    ensure: (list) => ensureDemoUsers(sql, write, list),
  };
}

export function createAccountStore(sql: Q, write: Write): Store["accounts"] {
  return {
    add: (user, token) =>
      write(async (tx) => {
        // Two adds of one name at once: the UNIQUE constraint decides, one of them waits.
        const inserted = await tx`
          INSERT INTO users (id, username, phone_number, avatar_url, last_active_at, created_at)
          VALUES (${user.id}, ${user.username}, ${user.phone_number}, ${user.avatar_url},
            ${user.last_active_at ?? null}, ${user.created_at})
          ON CONFLICT DO NOTHING RETURNING 1`;
        if (inserted.length === 0) return false;
        await tx`INSERT INTO tokens (hash, user_id, created_at, name, expires_at)
          VALUES (${token.hash}, ${user.id}, ${user.created_at}, ${token.name}, ${token.expires_at})`;
        return true;
      }),
    async list() {
      return copy(
        await sql<Account[]>`
          SELECT id, username, created_at, last_active_at, removed_at,
            (SELECT count(*)::integer FROM tokens t WHERE t.user_id = users.id
              AND (t.expires_at IS NULL OR t.expires_at > extract(epoch FROM now()))) AS tokens
          FROM users ORDER BY username`,
      );
    },
    addToken: (username, token, now) =>
      write(async (tx) => {
        const person = await personOf(tx, username);
        if (person === undefined) return "missing";
        if (person.removed) return "removed";
        const replaced = await tx`DELETE FROM tokens
          WHERE user_id = ${person.id} AND name = ${token.name} RETURNING 1`;
        // A demo user given a token of their own is someone's now: the demo's token goes.
        const wasDemo =
          token.name === "default" &&
          (await tx`DELETE FROM demo_tokens WHERE user_id = ${person.id} RETURNING 1`).length > 0;
        await tx`INSERT INTO tokens (hash, user_id, created_at, name, expires_at)
          VALUES (${token.hash}, ${person.id}, ${now}, ${token.name}, ${token.expires_at})`;
        if (replaced.length > 0 || wasDemo) {
          await accessEnded(tx, person.id, { why: "token replaced", username });
        }
        return "ok";
      }),
    revoke: (username, name) =>
      write(async (tx) => {
        const id = await idOf(tx, username);
        if (id === undefined) return undefined;
        const demo = await tx`DELETE FROM demo_tokens WHERE user_id = ${id} RETURNING 1`;
        const gone =
          name === undefined
            ? await tx`DELETE FROM tokens WHERE user_id = ${id} RETURNING 1`
            : await tx`DELETE FROM tokens WHERE user_id = ${id} AND name = ${name} RETURNING 1`;
        if (gone.length > 0 || demo.length > 0) {
          await accessEnded(tx, id, { why: "token revoked", username });
        }
        return gone.length;
      }),
    async tokens(username) {
      const id = await idOf(sql, username);
      if (id === undefined) return undefined;
      return copy(
        await sql<TokenInfo[]>`
          SELECT name, created_at, last_used_at, expires_at FROM tokens
          WHERE user_id = ${id} ORDER BY name`,
      );
    },
    remove: (username, now) =>
      write(async (tx) => {
        const id = await idOf(tx, username);
        if (id === undefined) return false;
        await tx`DELETE FROM tokens WHERE user_id = ${id}`;
        await tx`DELETE FROM demo_tokens WHERE user_id = ${id}`;
        await tx`DELETE FROM group_members WHERE user_id = ${id}`;
        await tx`DELETE FROM memberships WHERE user_id = ${id}
          AND conversation_id IN (SELECT id FROM conversations WHERE group_id IS NOT NULL)`;
        await tx`UPDATE users SET removed_at = ${now} WHERE id = ${id}`;
        await accessEnded(tx, id, { why: "removed", username });
        return true;
      }),
    restore: (username) =>
      write(async (tx) => {
        const person = await personOf(tx, username);
        if (person === undefined) return "missing";
        if (!person.removed) return "active";
        await tx`UPDATE users SET removed_at = NULL WHERE id = ${person.id}`;
        return "ok";
      }),
    async search(text, limit) {
      return copy(
        await sql<{ id: string; username: string }[]>`
          SELECT id, username FROM users
          WHERE removed_at IS NULL AND strpos(username, ${text}) > 0
          ORDER BY strpos(username, ${text}) <> 1, username LIMIT ${limit}`,
      );
    },
    addGroup: (id, name, members, now) =>
      write(async (tx) => {
        const ids: string[] = [];
        const unknown: string[] = [];
        const removed: string[] = [];
        for (const member of members) {
          const person = await personOf(tx, member);
          if (person === undefined) unknown.push(member);
          else if (person.removed) removed.push(member);
          else ids.push(person.id);
        }
        if (unknown.length > 0 || removed.length > 0) return { unknown, removed };
        await tx`INSERT INTO groups (id, name, created_at) VALUES (${id}, ${name}, ${now})
          ON CONFLICT (id) DO NOTHING`;
        for (const userId of ids) {
          await tx`INSERT INTO group_members (group_id, user_id) VALUES (${id}, ${userId})
            ON CONFLICT DO NOTHING`;
        }
        return { unknown, removed };
      }),
    removeMembers: (id, members) =>
      write(async (tx) => {
        const [group] = await tx`SELECT 1 FROM groups WHERE id = ${id}`;
        if (!group) return undefined;
        const absent: string[] = [];
        for (const member of members) {
          const userId = await idOf(tx, member);
          const gone =
            userId === undefined
              ? []
              : await tx`DELETE FROM group_members WHERE group_id = ${id} AND user_id = ${userId}
                  RETURNING 1`;
          if (gone.length === 0) {
            absent.push(member);
            continue;
          }
          await tx`DELETE FROM memberships WHERE user_id = ${userId!}
            AND conversation_id = (SELECT id FROM conversations WHERE group_id = ${id})`;
        }
        return absent;
      }),
    async tokenUsed(hash, now) {
      await sql`UPDATE tokens SET last_used_at = ${now}
        WHERE hash = ${hash} AND coalesce(last_used_at, 0) < ${now}`;
    },
    dropExpired: (now) =>
      write(
        async (tx) => (await tx`DELETE FROM tokens WHERE expires_at <= ${now} RETURNING 1`).length,
      ),
    async groups() {
      const rows = await sql<{ id: string; name: string; members: string[] | null }[]>`
        SELECT g.id, g.name,
          array_agg(u.username ORDER BY u.username) FILTER (WHERE u.id IS NOT NULL) AS members
        FROM groups g
          LEFT JOIN group_members m ON m.group_id = g.id
          LEFT JOIN users u ON u.id = m.user_id
        GROUP BY g.id, g.name ORDER BY g.id`;
      return rows.map((r): GroupInfo => ({ id: r.id, name: r.name, members: r.members ?? [] }));
    },
  };
}
