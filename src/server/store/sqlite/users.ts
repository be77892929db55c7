// Users (each one a contact of the others) and groups.
import type { DatabaseSync } from "node:sqlite";
import type { NewUser, User } from "../store.ts";

export function createUserStore(db: DatabaseSync) {
  const byToken = db.prepare("SELECT * FROM users WHERE token = ?");
  const byId = db.prepare("SELECT * FROM users WHERE id = ?");
  const all = db.prepare("SELECT * FROM users ORDER BY created_at, id");
  const insert = db.prepare(
    `INSERT INTO users (id, username, phone_number, avatar_url, token, last_active_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const touch = db.prepare(
    "UPDATE users SET last_active_at = ? WHERE id = ? AND coalesce(last_active_at, 0) < ?",
  );
  const insertGroup = db.prepare("INSERT INTO groups (id, name, created_at) VALUES (?, ?, ?)");
  const insertMember = db.prepare("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)");
  const groupExists = db.prepare("SELECT 1 AS found FROM groups WHERE id = ?");
  const isMember = db.prepare(
    "SELECT 1 AS found FROM group_members WHERE group_id = ? AND user_id = ?",
  );
  const members = db.prepare(
    "SELECT user_id FROM group_members WHERE group_id = ? ORDER BY user_id",
  );

  return {
    byToken: (token: string) => byToken.get(token) as User | undefined,
    byId: (id: string) => byId.get(id) as User | undefined,
    all: () => all.all() as User[],
    insert(user: NewUser): void {
      insert.run(
        user.id,
        user.username,
        user.phone_number,
        user.avatar_url,
        user.token,
        user.last_active_at ?? null,
        user.created_at,
      );
    },
    /** Records activity; writes only when the stored time is older than `now`. */
    touch(id: string, now: number): void {
      touch.run(now, id, now);
    },
    insertGroup(id: string, name: string, createdAt: number, memberIds: readonly string[]): void {
      insertGroup.run(id, name, createdAt);
      for (const userId of memberIds) insertMember.run(id, userId);
    },
    groupExists: (id: string) => groupExists.get(id) !== undefined,
    isGroupMember: (groupId: string, userId: string) => isMember.get(groupId, userId) !== undefined,
    groupMembers: (groupId: string) =>
      (members.all(groupId) as { user_id: string }[]).map((row) => row.user_id),
  };
}

export type UserStore = ReturnType<typeof createUserStore>;
