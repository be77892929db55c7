// Responses remembered per user and Idempotency-Key, for 24 hours. A key is claimed by a
// row with status 0 before the request runs, so a second request with it waits its turn.
// A claim's body names its owner, "<pid>:<instance>": another process on the same file
// takes over the claim of a process that is gone.
import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  type Claim,
  IDEMPOTENCY_ABANDONED_SECONDS,
  IDEMPOTENCY_TTL_SECONDS,
  type IdempotentAnswer,
  type RememberedResponse,
} from "../store.ts";
import { transaction } from "./db.ts";

const OWNER = `${process.pid}:${randomUUID()}`;

/** True while the process that claimed a key may still answer it. */
function ownerAlive(owner: string): boolean {
  if (owner === OWNER) return true;
  const pid = Number(owner.split(":")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function createIdempotencyStore(db: DatabaseSync) {
  const find = db.prepare(
    `SELECT fingerprint, status, body, created_at FROM idempotency_keys
     WHERE user_id = ? AND key = ?`,
  );
  const claim = db.prepare(
    `INSERT OR REPLACE INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at)
     VALUES (?, ?, ?, 0, ?, ?)`,
  );
  const complete = db.prepare(
    `UPDATE idempotency_keys SET status = ?, body = ?, created_at = ?
     WHERE user_id = ? AND key = ? AND status = 0 AND body = ?`,
  );
  const release = db.prepare(
    "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND status = 0 AND body = ?",
  );
  // Answers after 24 hours; claims too, by then surely of requests that died.
  const expire = db.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?");

  return {
    claim(userId: string, key: string, fingerprint: string, now: number): Claim {
      return transaction(db, () => {
        const row = find.get(userId, key) as
          | (RememberedResponse & { created_at: number })
          | undefined;
        if (
          row?.status === 0 &&
          row.created_at > now - IDEMPOTENCY_ABANDONED_SECONDS &&
          ownerAlive(row.body)
        ) {
          return { state: "pending", fingerprint: row.fingerprint };
        }
        if (row && row.status !== 0 && row.created_at > now - IDEMPOTENCY_TTL_SECONDS) {
          const { fingerprint, status, body } = row;
          return { state: "done", response: { fingerprint, status, body } };
        }
        claim.run(userId, key, fingerprint, OWNER, now);
        return { state: "claimed" };
      });
    },
    /** Inside the caller's transaction when there is one; false when the claim is not ours. */
    complete({ userId, key, response, now }: IdempotentAnswer): boolean {
      return transaction(db, () => {
        expire.run(now - IDEMPOTENCY_TTL_SECONDS);
        const done = complete.run(response.status, response.body, now, userId, key, OWNER);
        return Number(done.changes) > 0;
      });
    },
    release: (userId: string, key: string) => {
      release.run(userId, key, OWNER);
    },
  };
}
