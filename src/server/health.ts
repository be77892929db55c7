// Whether the database answers, as requests and GET /readyz find it. An outage is one log
// line when it starts and one when it ends, and every request meanwhile a 503 rather than
// a 500 with a stack trace; while it lasts, the database is tried every second, so the
// server recovers on its own (the PostgreSQL driver reconnects at the next query).
import { escapeForLog } from "../log-escape.ts";
import { HttpError } from "./errors.ts";
import type { Store } from "./store/index.ts";

/** Errors that say the database cannot be reached now, not that a query is wrong. */
const UNREACHABLE =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|57P0[123]|08...|53300|PARLEY_PING_TIMEOUT)$/;
/** SQLite: the database is locked by another process past busy_timeout. */
const SQLITE_BUSY = 5;

export function isUnreachable(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown };
  return UNREACHABLE.test(String(e?.code ?? "")) || e?.errcode === SQLITE_BUSY;
}

export const unavailable = (): HttpError =>
  new HttpError(
    503,
    "internal",
    "The server cannot reach its database just now. Try again in a few seconds.",
    { headers: { "Retry-After": "5" } },
  );

export type DatabaseHealth = {
  up(): boolean;
  /** Outages counted since start. */
  outages(): number;
  /** True (and the outage logged once) when `error` says the database is unreachable. */
  failed(error: unknown): boolean;
  /** Asks the database now (at most one question at a time); true when it answered. */
  check(): Promise<boolean>;
  close(): void;
};

const PING_TIMEOUT_MS = 2000;
const RETRY_MS = 1000;

export function createDatabaseHealth(store: Store, log: (line: string) => void): DatabaseHealth {
  let downSince: number | undefined;
  let outages = 0;
  let asking: Promise<boolean> | undefined;
  let retry: ReturnType<typeof setInterval> | undefined;

  function failed(error: unknown): boolean {
    if (!isUnreachable(error)) return false;
    if (downSince === undefined) {
      downSince = Date.now();
      outages++;
      const why = escapeForLog(String((error as Error)?.message ?? error)).slice(0, 300);
      log(`database unreachable: ${why}; answering 503 until it is back`);
      retry = setInterval(() => void check(), RETRY_MS);
      retry.unref();
    }
    return true;
  }

  function recovered(): void {
    if (downSince === undefined) return;
    const seconds = Math.round((Date.now() - downSince) / 1000);
    downSince = undefined;
    clearInterval(retry);
    log(`database reachable again after ${seconds} s`);
  }

  async function ask(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            Object.assign(new Error(`no answer within ${PING_TIMEOUT_MS} ms`), {
              code: "PARLEY_PING_TIMEOUT",
            }),
          ),
        PING_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([store.ping(), timeout]);
      recovered();
      return true;
    } catch (error) {
      // Whatever stops a trivial query makes the database unusable.
      failed(
        isUnreachable(error)
          ? error
          : Object.assign(new Error(String(error)), { code: "PARLEY_PING_TIMEOUT" }),
      );
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  function check(): Promise<boolean> {
    asking ??= ask().finally(() => {
      asking = undefined;
    });
    return asking;
  }

  return {
    up: () => downSince === undefined,
    outages: () => outages,
    failed,
    check,
    close: () => clearInterval(retry),
  };
}
