// The demo's data on PostgreSQL: seeded once into an empty database, by one instance
// (the others wait on the lock, then find it seeded).
import type { Store } from "../store.ts";
import { LOCK, PARLEY, type Write } from "./sql.ts";

const SEEDED = "demo_seeded";

export function createDemoStore(write: Write): Store["demo"] {
  return {
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
  };
}
