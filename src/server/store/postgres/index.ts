// The PostgreSQL store: any number of server instances on one database. What they must
// share is in the database (constraints and transactions keep it right under concurrency),
// and what they must hear of goes through LISTEN/NOTIFY: every write tells the others to
// drop their cached pages, and every message sent reaches the one instance that holds the
// demo replies' advisory lock (leader.ts). Each concern's methods are in a file of its own;
// this one opens, wires and closes.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { newerSchema, noDatabase } from "../errors.ts";
import type { SentEvent, Store } from "../store.ts";
import { createConversationStore } from "./conversations.ts";
import { createDemoStore } from "./demo.ts";
import { createEventStore, EVENTS } from "./events.ts";
import { createFileStore } from "./files.ts";
import { createIdempotencyStore, holdOwnerLock, type Owner } from "./idempotency.ts";
import { createLeadership } from "./leader.ts";
import { createMessageStore } from "./messages.ts";
import { MIGRATIONS } from "./migrations.ts";
import { poolName, poolState } from "./pool.ts";
import { createPresenceStore } from "./presence.ts";
import {
  connect,
  connectionSettings,
  LOCK,
  PARLEY,
  type Q,
  unreachable,
  type Write,
  type WriteOne,
  where,
} from "./sql.ts";
import { createAccountStore, createUserStore } from "./users.ts";

const CHANGED = "parley_changed";
const SENT = "parley_sent";

export type PostgresOptions = {
  poolSize?: number;
  /** Bring the schema in (default true); false: a database without parley's tables is refused. */
  create?: boolean;
  /** How often the instance checks it still holds its owner lock; default 5 s. */
  ownerCheckMs?: number;
};

/** Brings the schema up to date: one instance at a time, each migration once. */
export async function migrate(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${PARLEY}, ${LOCK.migrate})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)`;
    const [row] = await tx<{ version: number }[]>`
      SELECT coalesce(max(version), 0)::integer AS version FROM schema_version`;
    const current = row?.version ?? 0;
    if (current > MIGRATIONS.length) throw newerSchema(current, MIGRATIONS.length);
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await tx.unsafe(MIGRATIONS[version - 1]!);
      await tx`INSERT INTO schema_version (version) VALUES (${version})`;
    }
  });
}

export async function openPostgresStore(
  url: string,
  options: PostgresOptions = {},
): Promise<Store> {
  connectionSettings(url);
  const instance = randomUUID();
  const sql = connect(url, options.poolSize ?? 10, poolName(instance));
  // Page cache version: this instance's writes (counted before and after each), and the
  // notices of other instances' commits.
  let own = 0;
  let others = 0;
  let closed = false;
  const sentListeners: ((event: SentEvent) => void)[] = [];
  const events = createEventStore(sql);
  const leadership = createLeadership(url);
  let claims: Owner | undefined;

  let serverId = "";
  try {
    if (options.create === false) {
      const [found] = await sql<{ table: string | null }[]>`
        SELECT to_regclass('schema_version')::text AS table`;
      if (!found?.table) throw noDatabase(where(url));
    }
    await migrate(sql);
    claims = await holdOwnerLock(url, options.ownerCheckMs);
    const [row] = await sql<{ value: string }[]>`SELECT value FROM meta WHERE key = 'server_id'`;
    serverId = row!.value;
    await sql.listen(
      CHANGED,
      (payload) => {
        if (payload !== instance) others++;
      },
      // (Re)connected: notices may have been missed meanwhile, so the cache starts over.
      () => others++,
    );
    // (Re)connected too: events may have been appended meanwhile.
    await sql.listen(EVENTS, events.appended, events.appended);
    await sql.listen(SENT, (payload) => {
      const event = JSON.parse(payload) as SentEvent;
      for (const listener of sentListeners) listener(event);
    });
  } catch (error) {
    await claims?.release();
    await sql.end({ timeout: 1 });
    throw unreachable(url, error);
  }
  const owner = claims;

  /** The one place that counts this instance's writes, for both kinds below. */
  async function counted<T>(run: () => Promise<T>): Promise<T> {
    own++;
    try {
      return await run();
    } finally {
      own++;
    }
  }
  /** What tells the other instances of a write: to SELECT once it has written. */
  const changed = (q: Q) => q`pg_notify(${CHANGED}, ${instance})`;

  /** A write in one transaction; the other instances hear of it when it commits. */
  const write: Write = <T>(fn: (tx: Q) => Promise<T>) =>
    counted(
      async () =>
        (await sql.begin(async (tx) => {
          const result = await fn(tx);
          await tx`SELECT ${changed(tx)}`;
          return result;
        })) as T,
    );
  /** A write in one statement, atomic by itself (messages.send's common case). */
  const writeOne: WriteOne = (statement) => counted(() => statement(changed(sql)));

  return {
    kind: "postgres",
    serverId,
    users: createUserStore(sql, write),
    accounts: createAccountStore(sql, write),
    conversations: createConversationStore(sql, write),
    messages: createMessageStore(sql, write, writeOne, owner),
    idempotency: createIdempotencyStore(sql, owner),
    events,
    files: createFileStore(sql),
    demo: createDemoStore(write),
    presence: createPresenceStore(sql),
    version: () => `${own}.${others}`,
    publishSent(event) {
      sql.notify(SENT, JSON.stringify(event)).catch(() => {});
    },
    onSent(listener) {
      sentListeners.push(listener);
      // Someone will answer: take part in choosing who.
      return leadership.compete();
    },
    isLeader: leadership.isLeader,
    schema: MIGRATIONS.length,
    async ping() {
      await sql`SELECT 1`;
    },
    pool: () => poolState(sql, poolName(instance)),
    async close() {
      if (closed) return;
      closed = true;
      await leadership.close();
      await Promise.all([owner.release(), sql.end({ timeout: 2 })]);
    },
  };
}
