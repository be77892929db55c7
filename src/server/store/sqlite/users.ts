// Users (each one a contact of the others), their tokens (as hashes) and groups.
import type { DatabaseSync } from "node:sqlite";
import type {
  Account,
  DemoToken,
  GroupInfo,
  NewToken,
  NewUser,
  TokenInfo,
  User,
} from "../store.ts";

const USER = "id, username, phone_number, avatar_url, last_active_at, created_at";

export function createUserStore(db: DatabaseSync) {
  // A removed person, or a token past its expiry, signs nobody in.
  const byTokenHash = db.prepare(
    `SELECT ${USER} FROM users WHERE removed_at IS NULL AND id = (SELECT user_id FROM tokens
       WHERE hash = ? AND (expires_at IS NULL OR expires_at > unixepoch()))`,
  );
  const byId = db.prepare(`SELECT ${USER} FROM users WHERE id = ?`);
  const count = db.prepare("SELECT count(*) AS n FROM users");
  const idOf = db.prepare("SELECT id FROM users WHERE username = ?");
  // users.token is a leftover of schema 1 (see migration 2): it holds the id.
  const insert = db.prepare(
    `INSERT INTO users (id, username, phone_number, avatar_url, token, last_active_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertToken = db.prepare(
    "INSERT INTO tokens (hash, user_id, created_at, name, expires_at) VALUES (?, ?, ?, ?, ?)",
  );
  const dropTokens = db.prepare("DELETE FROM tokens WHERE user_id = ?");
  const dropToken = db.prepare("DELETE FROM tokens WHERE user_id = ? AND name = ?");
  const tokensOf = db.prepare(
    "SELECT name, created_at, last_used_at, expires_at FROM tokens WHERE user_id = ? ORDER BY name",
  );
  const tokenUsed = db.prepare(
    "UPDATE tokens SET last_used_at = ? WHERE hash = ? AND coalesce(last_used_at, 0) < ?",
  );
  const dropExpired = db.prepare("DELETE FROM tokens WHERE expires_at <= ?");
  const removedAt = db.prepare("SELECT removed_at FROM users WHERE id = ?");
  const leaveGroupConversations = db.prepare(
    `DELETE FROM memberships WHERE user_id = ?
     AND conversation_id IN (SELECT id FROM conversations WHERE group_id IS NOT NULL)`,
  );
  const leaveGroup = db.prepare("DELETE FROM group_members WHERE group_id = ? AND user_id = ?");
  const leaveGroupConversation = db.prepare(
    `DELETE FROM memberships WHERE user_id = ?
     AND conversation_id = (SELECT id FROM conversations WHERE group_id = ?)`,
  );
  // demo_tokens.token is left empty (migration 5): a row marks a demo user, no more.
  const insertDemoToken = db.prepare("INSERT INTO demo_tokens (user_id, token) VALUES (?, '')");
  const dropDemoToken = db.prepare("DELETE FROM demo_tokens WHERE user_id = ?");
  const demoTokens = db.prepare(
    `SELECT u.id, u.username FROM demo_tokens d JOIN users u ON u.id = d.user_id
     ORDER BY u.created_at, u.id`,
  );
  const accounts = db.prepare(
    `SELECT id, username, created_at, last_active_at, removed_at,
       (SELECT count(*) FROM tokens t WHERE t.user_id = users.id
          AND (t.expires_at IS NULL OR t.expires_at > unixepoch())) AS tokens
     FROM users ORDER BY username`,
  );
  const setRemoved = db.prepare("UPDATE users SET removed_at = ? WHERE id = ?");
  const leaveGroups = db.prepare("DELETE FROM group_members WHERE user_id = ?");
  const search = db.prepare(
    `SELECT id, username FROM users WHERE removed_at IS NULL AND instr(username, ?) > 0
     ORDER BY instr(username, ?) <> 1, username LIMIT ?`,
  );
  const touch = db.prepare(
    "UPDATE users SET last_active_at = ? WHERE id = ? AND coalesce(last_active_at, 0) < ?",
  );
  const insertGroup = db.prepare(
    "INSERT INTO groups (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
  );
  const insertMember = db.prepare(
    "INSERT INTO group_members (group_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
  );
  const groupExists = db.prepare("SELECT 1 AS found FROM groups WHERE id = ?");
  const groups = db.prepare("SELECT id, name FROM groups ORDER BY id");
  const isMember = db.prepare(
    "SELECT 1 AS found FROM group_members WHERE group_id = ? AND user_id = ?",
  );
  const members = db.prepare(
    "SELECT user_id FROM group_members WHERE group_id = ? ORDER BY user_id",
  );
  const memberNames = db.prepare(
    `SELECT u.username FROM group_members m JOIN users u ON u.id = m.user_id
     WHERE m.group_id = ? ORDER BY u.username`,
  );
  const userId = (username: string) => (idOf.get(username) as { id: string } | undefined)?.id;

  return {
    byTokenHash: (hash: string) => byTokenHash.get(hash) as User | undefined,
    byId: (id: string) => byId.get(id) as User | undefined,
    count: () => (count.get() as { n: number }).n,
    userId,
    insert(user: NewUser, token: NewToken | null): void {
      insert.run(
        user.id,
        user.username,
        user.phone_number,
        user.avatar_url,
        user.id,
        user.last_active_at ?? null,
        user.created_at,
      );
      if (token !== null) {
        insertToken.run(token.hash, user.id, user.created_at, token.name, token.expires_at);
      }
    },
    markDemoUser: (id: string) => insertDemoToken.run(id),
    demoTokens: () => demoTokens.all() as DemoToken[],
    accounts: () => accounts.all() as Account[],
    isRemoved: (id: string) =>
      (removedAt.get(id) as { removed_at: number | null } | undefined)?.removed_at != null,
    /** A token for the user, replacing theirs of the same name. */
    /** True when it replaced one (the demo's token of a demo user, too). */
    addToken(id: string, token: NewToken, now: number): boolean {
      const replaced = dropToken.run(id, token.name).changes > 0;
      // A demo user given a token of their own is someone's now: the demo's token goes.
      const wasDemo = token.name === "default" && dropDemoToken.run(id).changes > 0;
      insertToken.run(token.hash, id, now, token.name, token.expires_at);
      return replaced || wasDemo;
    },
    /** Their token of that name, or all of them: how many went, and whether the demo's did. */
    revoke(id: string, name: string | undefined): { count: number; demo: boolean } {
      const demo = dropDemoToken.run(id).changes > 0;
      const gone = name === undefined ? dropTokens.run(id) : dropToken.run(id, name);
      return { count: Number(gone.changes), demo };
    },
    tokens: (id: string) => tokensOf.all(id) as TokenInfo[],
    tokenUsed(hash: string, now: number): void {
      tokenUsed.run(now, hash, now);
    },
    dropExpired: (now: number) => Number(dropExpired.run(now).changes),
    restore(id: string): void {
      setRemoved.run(null, id);
    },
    remove(id: string, now: number): void {
      dropTokens.run(id);
      dropDemoToken.run(id);
      leaveGroups.run(id);
      leaveGroupConversations.run(id);
      setRemoved.run(now, id);
    },
    /** Out of the group and its conversation; false when they were not in it. */
    leaveGroup(groupId: string, id: string): boolean {
      leaveGroupConversation.run(id, groupId);
      return leaveGroup.run(groupId, id).changes > 0;
    },
    search: (text: string, limit: number) =>
      search.all(text, text, limit) as { id: string; username: string }[],
    /** Records activity; writes only when the stored time is older than `now`. */
    touch(id: string, now: number): void {
      touch.run(now, id, now);
    },
    insertGroup(id: string, name: string, createdAt: number, memberIds: readonly string[]): void {
      insertGroup.run(id, name, createdAt);
      for (const userId of memberIds) insertMember.run(id, userId);
    },
    groups: () =>
      (groups.all() as { id: string; name: string }[]).map(
        (g): GroupInfo => ({
          ...g,
          members: (memberNames.all(g.id) as { username: string }[]).map((m) => m.username),
        }),
      ),
    groupExists: (id: string) => groupExists.get(id) !== undefined,
    isGroupMember: (groupId: string, userId: string) => isMember.get(groupId, userId) !== undefined,
    groupMembers: (groupId: string) =>
      (members.all(groupId) as { user_id: string }[]).map((row) => row.user_id),
  };
}

export type UserStore = ReturnType<typeof createUserStore>;
