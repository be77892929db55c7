// Who made a request lately, shared by every instance; each writes a user's down at most
// every few seconds.
import type { Store } from "../store.ts";
import type { Q } from "./sql.ts";

/** A user's request is written down at most this often per instance, in seconds. */
const PRESENCE_EVERY = 5;

export function createPresenceStore(sql: Q): Store["presence"] {
  const written = new Map<string, number>();
  return {
    async seen(userId, now) {
      const last = written.get(userId);
      if (last !== undefined && now - last < PRESENCE_EVERY && now >= last) return;
      written.set(userId, now);
      await sql`INSERT INTO presence (user_id, seen_at) VALUES (${userId}, ${now})
        ON CONFLICT (user_id) DO UPDATE SET seen_at = greatest(presence.seen_at, excluded.seen_at)`;
    },
    async lastSeen(userId) {
      const [row] = await sql<{ seen_at: number }[]>`
        SELECT seen_at FROM presence WHERE user_id = ${userId}`;
      return row?.seen_at;
    },
  };
}
