// Responses remembered per user and Idempotency-Key, for 24 hours.
import type { DatabaseSync } from "node:sqlite";

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export type RememberedResponse = { fingerprint: string; status: number; body: string };

export function createIdempotencyStore(db: DatabaseSync) {
  const find = db.prepare(
    `SELECT fingerprint, status, body FROM idempotency_keys
     WHERE user_id = ? AND key = ? AND created_at > ?`,
  );
  const save = db.prepare(
    `INSERT OR REPLACE INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const expire = db.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?");

  return {
    find(userId: string, key: string, now: number): RememberedResponse | undefined {
      return find.get(userId, key, now - IDEMPOTENCY_TTL_SECONDS) as RememberedResponse | undefined;
    },
    save(userId: string, key: string, response: RememberedResponse, now: number): void {
      expire.run(now - IDEMPOTENCY_TTL_SECONDS);
      save.run(userId, key, response.fingerprint, response.status, response.body, now);
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
