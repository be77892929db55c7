// Users, their tokens (as hashes) and groups on PostgreSQL: the demo's users, and what
// `parley users` / `parley groups` and the contact search need.
import { hashToken } from "../../tokens.ts";
import type { Account, DemoToken, GroupInfo, NewUser, Store, User } from "../store.ts";
import { LOCK, PARLEY, type Q, type Write } from "./sql.ts";

const copy = <T extends object>(rows: readonly T[]): T[] => rows.map((row) => ({ ...row }));

async function idOf(tx: Q, username: string): Promise<string | undefined> {
  const [row] = await tx<{ id: string }[]>`SELECT id FROM users WHERE username = ${username}`;
  return row?.id;
}

async function userByTokenHash(sql: Q, hash: string): Promise<User | undefined> {
  const [user] = await sql<User[]>`
    SELECT u.id, u.username, u.phone_number, u.avatar_url, u.last_active_at, u.created_at
    FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = ${hash}`;
  return user && { ...user };
}

async function userById(sql: Q, id: string): Promise<User | undefined> {
  const [user] = await sql<User[]>`
    SELECT id, username, phone_number, avatar_url, last_active_at, created_at
    FROM users WHERE id = ${id}`;
  return user && { ...user };
}

/** The demo users with their tokens, once, when there are no users at all. */
async function ensureDemoUsers(
  sql: Q,
  write: Write,
  list: readonly (NewUser & { token: string })[],
  hash: (token: string) => string,
): Promise<DemoToken[]> {
  await write(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${PARLEY}, ${LOCK.seed})`;
    const [row] = await tx<{ n: number }[]>`SELECT count(*)::integer AS n FROM users`;
    if ((row?.n ?? 0) > 0) return;
    if (list.length === 0) return;
    const users = list.map(({ token: _, ...user }) => ({
      ...user,
      last_active_at: user.last_active_at ?? null,
    }));
    await tx`INSERT INTO users ${tx(users, "id", "username", "phone_number", "avatar_url", "last_active_at", "created_at")}`;
    const tokens = list.map((u) => ({
      hash: hash(u.token),
      user_id: u.id,
      created_at: u.created_at,
    }));
    await tx`INSERT INTO tokens ${tx(tokens, "hash", "user_id", "created_at")}`;
    const demo = list.map((u) => ({ user_id: u.id, token: u.token }));
    await tx`INSERT INTO demo_tokens ${tx(demo, "user_id", "token")}`;
  });
  return copy(
    await sql<DemoToken[]>`
      SELECT u.id, u.username, d.token FROM demo_tokens d JOIN users u ON u.id = d.user_id
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
    ensure: (list) => ensureDemoUsers(sql, write, list, hashToken),
  };
}

export function createAccountStore(sql: Q, write: Write): Store["accounts"] {
  return {
    add: (user, tokenHash) =>
      write(async (tx) => {
        // Two adds of one name at once: the UNIQUE constraint decides, one of them waits.
        const inserted = await tx`
          INSERT INTO users (id, username, phone_number, avatar_url, last_active_at, created_at)
          VALUES (${user.id}, ${user.username}, ${user.phone_number}, ${user.avatar_url},
            ${user.last_active_at ?? null}, ${user.created_at})
          ON CONFLICT DO NOTHING RETURNING 1`;
        if (inserted.length === 0) return false;
        await tx`INSERT INTO tokens (hash, user_id, created_at)
          VALUES (${tokenHash}, ${user.id}, ${user.created_at})`;
        return true;
      }),
    async list() {
      return copy(
        await sql<Account[]>`
          SELECT id, username, created_at, last_active_at, removed_at,
            (SELECT count(*)::integer FROM tokens t WHERE t.user_id = users.id) AS tokens
          FROM users ORDER BY username`,
      );
    },
    setToken: (username, tokenHash, now) =>
      write(async (tx) => {
        const id = await idOf(tx, username);
        if (id === undefined) return false;
        await tx`DELETE FROM tokens WHERE user_id = ${id}`;
        // A printed demo token that no longer signs in must not be printed again.
        await tx`DELETE FROM demo_tokens WHERE user_id = ${id}`;
        if (tokenHash !== null) {
          await tx`INSERT INTO tokens (hash, user_id, created_at) VALUES (${tokenHash}, ${id}, ${now})`;
          await tx`UPDATE users SET removed_at = NULL WHERE id = ${id}`;
        }
        return true;
      }),
    remove: (username, now) =>
      write(async (tx) => {
        const id = await idOf(tx, username);
        if (id === undefined) return false;
        await tx`DELETE FROM tokens WHERE user_id = ${id}`;
        await tx`DELETE FROM demo_tokens WHERE user_id = ${id}`;
        await tx`DELETE FROM group_members WHERE user_id = ${id}`;
        await tx`UPDATE users SET removed_at = ${now} WHERE id = ${id}`;
        return true;
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
        for (const member of members) {
          const userId = await idOf(tx, member);
          if (userId === undefined) return false;
          ids.push(userId);
        }
        await tx`INSERT INTO groups (id, name, created_at) VALUES (${id}, ${name}, ${now})
          ON CONFLICT (id) DO NOTHING`;
        for (const userId of ids) {
          await tx`INSERT INTO group_members (group_id, user_id) VALUES (${id}, ${userId})
            ON CONFLICT DO NOTHING`;
        }
        return true;
      }),
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
