// Which instance answers for the demo's users: the one whose session holds the demo
// replies' advisory lock. Instances that hear of sent messages compete for it.
import type postgres from "postgres";
import { LOCK, PARLEY, session } from "./sql.ts";

const LEADER_RETRY_MS = 2000;

export function createLeadership(url: string) {
  let leader = false;
  let leaderSql: postgres.Sql | undefined;
  let leaderTimer: NodeJS.Timeout | undefined;
  let closed = false;

  /**
   * Leads while this instance's own session holds the lock. Asked again every few
   * seconds: a session that holds it already gets true (the lock is re-entrant), one that
   * broke comes back without it and competes again. A connection of its own, not a
   * reserved one from the pool: postgres.js crashes the process on a query to a reserved
   * connection whose socket has closed.
   */
  async function tryLead(): Promise<void> {
    if (closed) return;
    leaderSql ??= session(url);
    try {
      const [row] = await leaderSql<{ ok: boolean }[]>`
        SELECT pg_try_advisory_lock(${PARLEY}, ${LOCK.demoReplies}) AS ok`;
      leader = row?.ok === true && !closed;
    } catch {
      leader = false;
    }
  }

  return {
    /**
     * Takes part in choosing who leads, from the first call on; settles when the first
     * try has: a server that answers before then would leave its first messages unanswered.
     */
    compete(): Promise<void> {
      if (leaderTimer) return Promise.resolve();
      const first = tryLead();
      leaderTimer = setInterval(() => void tryLead(), LEADER_RETRY_MS);
      leaderTimer.unref();
      return first;
    },
    isLeader: () => leader,
    async close(): Promise<void> {
      closed = true;
      clearInterval(leaderTimer);
      leader = false;
      await leaderSql?.end({ timeout: 1 });
    },
  };
}
