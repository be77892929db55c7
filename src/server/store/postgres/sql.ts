// The driver: postgres (porsager/postgres), pure JavaScript. Timestamps are bigint
// columns read back as numbers (Unix seconds fit a double exactly).
import postgres from "postgres";
import { DatabaseOpenError } from "../errors.ts";

export type Q = postgres.Sql | postgres.TransactionSql;

/** A write in one transaction (index.ts): counted, and heard of by the other instances. */
export type Write = <T>(fn: (tx: Q) => Promise<T>) => Promise<T>;
/**
 * A write in one statement, atomic by itself, counted as `Write` counts: the statement
 * must SELECT `changed` once it has written, which tells the other instances.
 */
export type WriteOne = <T>(statement: (changed: postgres.Fragment) => Promise<T>) => Promise<T>;

export function connect(url: string, max: number): postgres.Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    // A connection idle this long is closed; a busy pool keeps its connections.
    idle_timeout: 60,
    connect_timeout: 10,
  }) as unknown as postgres.Sql;
}

/**
 * One connection for a session-level advisory lock: it never idles or ages out (the
 * pool's do), and after a break it reconnects as a new session, without the lock.
 */
export function session(url: string): postgres.Sql {
  return postgres(url, { max: 1, idle_timeout: 0, max_lifetime: 0, onnotice: () => {} });
}

/** Advisory lock keys: (PARLEY, what). */
export const PARLEY = 0x70726c79;
export const LOCK = { migrate: 1, seed: 2, demoReplies: 3, events: 4 } as const;
/** (OWNERS, n): held by each instance for its life, n its own (postgres/idempotency.ts). */
export const OWNERS = 0x70726c7a;

/**
 * A failure to reach or enter the database (refused, unknown host, timeout, wrong password,
 * no such database) as one line naming where, without the password; anything else as it is.
 */
export function unreachable(url: string, error: unknown): unknown {
  if (error instanceof DatabaseOpenError) return error;
  const code = String((error as { code?: unknown }).code ?? "");
  const network =
    /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|CONNECT_TIMEOUT)$/;
  // SQLSTATE classes 08 (connection), 28 (authorization), 3D (no such database), 53 (resources).
  if (!network.test(code) && !/^(08|28|3D|53)...$/.test(code)) return error;
  let where = "the PostgreSQL server";
  try {
    const u = new URL(url);
    where = `PostgreSQL at ${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {}
  return new DatabaseOpenError(`Cannot connect to ${where}: ${(error as Error).message}.`);
}
