// Idempotency-Key claims and answers in PostgreSQL, shared by every instance. Each instance
// holds an advisory lock of its own for as long as its session lives, and writes that
// lock's number into the body of the claims it makes: a claim whose lock nobody holds
// belongs to an instance that died (kill -9, crash, lost network) and is taken over at
// once. Nothing is answered twice, because a claim is completed only by its owner and in
// the same transaction as what the request wrote (see `completeClaim`).
import { randomInt } from "node:crypto";
import {
  type Claim,
  IDEMPOTENCY_ABANDONED_SECONDS,
  IDEMPOTENCY_TTL_SECONDS,
  type IdempotentAnswer,
  type RememberedResponse,
  type Store,
} from "../store.ts";
import { OWNERS, type Q, session } from "./sql.ts";

/** `id` names new claims; `ids` are all this instance has held, to complete older ones. */
export type Owner = { readonly id: string; readonly ids: string[]; release(): Promise<void> };

const CHECK_OWNER_MS = 5000;

/**
 * Takes an advisory lock no other instance holds, on a connection of its own, and checks
 * every few seconds that its session still holds it; a connection that broke comes back
 * as a new session without the lock, and takes a new one. Claims made under the old
 * number look abandoned to others meanwhile; one taken over is not completed here (409,
 * and the client's retry finds the other's answer), one not taken over still is.
 */
export async function holdOwnerLock(url: string, checkMs = CHECK_OWNER_MS): Promise<Owner> {
  // Not a reserved connection of the pool: postgres.js crashes on a broken one.
  const sql = session(url);
  const ids: string[] = [];
  const take = async () => {
    for (;;) {
      const candidate = randomInt(1, 2 ** 31 - 1);
      const [row] = await sql<{ ok: boolean }[]>`
        SELECT pg_try_advisory_lock(${OWNERS}, ${candidate}) AS ok`;
      if (row?.ok) return String(candidate);
    }
  };
  const held = async () =>
    (
      await sql`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
        AND pid = pg_backend_pid() AND classid = ${OWNERS} AND objid = ${Number(ids.at(-1))}`
    ).length > 0;
  try {
    ids.push(await take());
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  let checking = false;
  const timer = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      if (!(await held())) ids.push(await take());
    } catch {
      // the database is away: try again next time
    } finally {
      checking = false;
    }
  }, checkMs);
  timer.unref();
  return {
    get id() {
      return ids.at(-1)!;
    },
    ids,
    async release() {
      clearInterval(timer);
      await sql.end({ timeout: 1 });
    },
  };
}

/** Completes this instance's claim; false (and nothing written) when it is not ours any more. */
export async function completeClaim(tx: Q, owner: Owner, answer: IdempotentAnswer) {
  const { userId, key, response, now } = answer;
  const done = await tx`UPDATE idempotency_keys
    SET status = ${response.status}, body = ${response.body}, created_at = ${now}
    WHERE user_id = ${userId} AND key = ${key} AND status = 0
      AND body = ANY(${owner.ids}::text[])
    RETURNING 1`;
  return done.length > 0;
}

export function createIdempotencyStore(sql: Q, owner: Owner): Store["idempotency"] {
  return {
    async claim(userId: string, key: string, fingerprint: string, now: number): Promise<Claim> {
      for (;;) {
        // The primary key decides between instances: one insert (or take-over of an
        // expired, abandoned or orphaned row) wins, everyone else reads the row that won.
        // A completion in progress holds the row, so a take-over waits for it and then
        // finds the answer.
        const claimed = await sql`
          INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at)
          VALUES (${userId}, ${key}, ${fingerprint}, 0, ${owner.id}, ${now})
          ON CONFLICT (user_id, key) DO UPDATE
            SET fingerprint = excluded.fingerprint, status = 0, body = excluded.body,
                created_at = excluded.created_at
            WHERE (idempotency_keys.status = 0
                   AND (idempotency_keys.created_at <= ${now - IDEMPOTENCY_ABANDONED_SECONDS}
                        OR NOT EXISTS (
                          SELECT 1 FROM pg_locks
                          WHERE locktype = 'advisory' AND granted AND objsubid = 2
                            AND database = (SELECT oid FROM pg_database
                                            WHERE datname = current_database())
                            AND classid = ${OWNERS}
                            AND objid::text = idempotency_keys.body)))
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
    async complete(answer: IdempotentAnswer): Promise<void> {
      await completeClaim(sql, owner, answer);
      if (Math.random() < 0.01) {
        await sql`DELETE FROM idempotency_keys
          WHERE created_at <= ${answer.now - IDEMPOTENCY_TTL_SECONDS}`;
      }
    },
    async release(userId: string, key: string): Promise<void> {
      await sql`DELETE FROM idempotency_keys
        WHERE user_id = ${userId} AND key = ${key} AND status = 0
          AND body = ANY(${owner.ids}::text[])`;
    },
  };
}
