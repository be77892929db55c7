// The pool metric (parley_database_connections): this instance's connections as
// PostgreSQL sees them in pg_stat_activity, found by the application_name the pool
// connects with (sql.ts). postgres.js does not expose its pool's state, and the database's
// own view also tells a connection stuck on a lock from one running a query.
import type { Q } from "./sql.ts";

/** Connections of the pool: running a statement or inside a transaction, idle, waiting on a lock. */
export type PoolState = { inUse: number; idle: number; waiting: number };

export const poolName = (instance: string) => `parley ${instance.slice(0, 8)}`;

export async function poolState(sql: Q, name: string): Promise<PoolState> {
  // The scrape's own connection counts as idle (it is busy only for this query); the
  // connection postgres.js opens for LISTEN with the pool's settings (its last query a
  // `listen`) is not the pool's.
  const [row] = await sql<{ in_use: number; idle: number; waiting: number }[]>`
    WITH pool AS (
      SELECT CASE
        WHEN state = 'idle' OR pid = pg_backend_pid() THEN 'idle'
        WHEN wait_event_type = 'Lock' THEN 'waiting'
        ELSE 'in_use' END AS what
      FROM pg_stat_activity
      WHERE application_name = ${name} AND backend_type = 'client backend'
        AND left(query, 7) <> 'listen '
    )
    SELECT count(*) FILTER (WHERE what = 'in_use')::integer AS in_use,
      count(*) FILTER (WHERE what = 'idle')::integer AS idle,
      count(*) FILTER (WHERE what = 'waiting')::integer AS waiting
    FROM pool`;
  return { inUse: row?.in_use ?? 0, idle: row?.idle ?? 0, waiting: row?.waiting ?? 0 };
}
