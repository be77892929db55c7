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

/** Seconds to wait for a connection to be ready when nothing says otherwise. */
export const CONNECT_TIMEOUT_S = 5;

/**
 * The URL checked before the driver sees it (which would throw a stack trace of its own),
 * and how long to wait for a connection: the URL's `connect_timeout` (libpq's name), else
 * PGCONNECT_TIMEOUT, else 5 s. A host that accepts and never answers must not hang a start.
 */
export function connectionSettings(url: string): { connect_timeout: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
    decodeURIComponent(parsed.username);
    decodeURIComponent(parsed.password);
    decodeURIComponent(parsed.host);
  } catch {
    throw new DatabaseOpenError(
      "The PostgreSQL URL is not valid: write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE (a password with @, : or / in it percent-encoded).",
      2,
    );
  }
  const given = parsed.searchParams.get("connect_timeout") ?? process.env.PGCONNECT_TIMEOUT;
  if (given === undefined || given === "") return { connect_timeout: CONNECT_TIMEOUT_S };
  const seconds = Number(given);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new DatabaseOpenError(
      `connect_timeout must be a number of seconds from 1 to 3600, not "${given.slice(0, 20).replace(/[^\x20-\x7e]/g, "?")}".`,
      2,
    );
  }
  return { connect_timeout: seconds };
}

export function connect(url: string, max: number, applicationName?: string): postgres.Sql {
  return postgres(url, {
    max,
    ...connectionSettings(url),
    // Names this instance's pool in pg_stat_activity (its pool metric, pool.ts).
    ...(applicationName ? { connection: { application_name: applicationName } } : {}),
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
  }) as unknown as postgres.Sql;
}

/**
 * One connection for a session-level advisory lock: it never idles or ages out (the
 * pool's do), and after a break it reconnects as a new session, without the lock.
 */
export function session(url: string): postgres.Sql {
  return postgres(url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: 0,
    onnotice: () => {},
    ...connectionSettings(url),
  });
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
  const why =
    code === "CONNECT_TIMEOUT"
      ? `no answer within ${connectionSettings(url).connect_timeout} s (connect_timeout=SECONDS in the URL waits longer)`
      : (error as Error).message;
  return new DatabaseOpenError(`Cannot connect to ${where(url)}: ${why}.`);
}

/** Where a URL points, without the user or password: "PostgreSQL at HOST:PORT/DATABASE". */
export function where(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "the PostgreSQL server";
  }
}
