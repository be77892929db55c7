// The events table on PostgreSQL. Every instance's reader must see ids in the order they
// grow: a bigserial id is taken at insert but seen at commit, so two writers could commit
// 6 before 5 and a reader that went on from 6 would never see 5. The advisory lock below
// is held from the id being taken until commit, so ids commit in order; a writer waits
// for it only at the end of its transaction. Each append notifies EVENTS on commit, and
// every instance's reader then reads the new rows by id.
import type { EventType, Store, StoredEvent } from "../store.ts";
import { LOCK, PARLEY, type Q } from "./sql.ts";

export const EVENTS = "parley_events";
const PRUNED = "events_pruned_through";

type Row = {
  id: number;
  type: EventType;
  conversation_id: string;
  resource_id: string;
  recipients: string[];
};

const toEvent = (row: Row): StoredEvent => ({
  id: row.id,
  type: row.type,
  conversationId: row.conversation_id,
  resourceId: row.resource_id,
  recipients: [...row.recipients],
});

/** Inside a write's transaction, as its last statements: one event. */
export async function appendEvent(
  tx: Q,
  type: EventType,
  conversationId: string,
  resourceId: string,
  recipients: readonly string[] | "members",
): Promise<void> {
  if (recipients !== "members" && recipients.length === 0) return;
  await tx`SELECT pg_advisory_xact_lock(${PARLEY}, ${LOCK.events})`;
  if (recipients === "members") {
    await tx`INSERT INTO events (type, conversation_id, resource_id, recipients)
      SELECT ${type}, ${conversationId}, ${resourceId}, coalesce(array_agg(user_id), '{}')
      FROM memberships WHERE conversation_id = ${conversationId}`;
  } else {
    await tx`INSERT INTO events (type, conversation_id, resource_id, recipients)
      VALUES (${type}, ${conversationId}, ${resourceId}, ${recipients as string[]})`;
  }
  await tx`SELECT pg_notify(${EVENTS}, '')`;
}

async function eventsAfter(
  sql: Q,
  afterId: number,
  limit: number,
  userId?: string,
): Promise<StoredEvent[]> {
  const rows =
    userId === undefined
      ? await sql<Row[]>`SELECT id, type, conversation_id, resource_id, recipients FROM events
          WHERE id > ${afterId} ORDER BY id LIMIT ${limit}`
      : await sql<Row[]>`SELECT id, type, conversation_id, resource_id, recipients FROM events
          WHERE id > ${afterId} AND ${userId} = ANY(recipients) ORDER BY id LIMIT ${limit}`;
  return rows.map(toEvent);
}

async function eventBounds(sql: Q): Promise<{ newest: number; pruned: number }> {
  const [row] = await sql<{ newest: number | null; pruned: string | null }[]>`
    SELECT (SELECT max(id) FROM events) AS newest,
           (SELECT value FROM meta WHERE key = ${PRUNED}) AS pruned`;
  const pruned = Number(row?.pruned ?? 0);
  return { newest: Math.max(row?.newest ?? 0, pruned), pruned };
}

async function pruneEvents(sql: Q, keptSeconds: number, keptCount: number): Promise<void> {
  await sql`
    WITH gone AS (
      DELETE FROM events
      WHERE created_at < extract(epoch FROM now())::bigint - ${keptSeconds}
        AND id <= (SELECT max(id) FROM events) - ${keptCount}
      RETURNING id
    )
    INSERT INTO meta (key, value) SELECT ${PRUNED}, max(id)::text FROM gone HAVING count(*) > 0
    ON CONFLICT (key) DO UPDATE
      SET value = greatest(meta.value::bigint, excluded.value::bigint)::text`;
}

async function tokenOwners(sql: Q, tokens: readonly string[]): Promise<Map<string, string>> {
  const rows = await sql<{ token: string; id: string }[]>`
    SELECT hash AS token, user_id AS id FROM tokens WHERE hash = ANY(${tokens as string[]})`;
  return new Map(rows.map((row) => [row.token, row.id]));
}

/** `appended` is for index.ts, which LISTENs for EVENTS: it tells the `onAppended` listeners. */
export function createEventStore(sql: Q): Store["events"] & { appended(): void } {
  const listeners: (() => void)[] = [];
  return {
    after: (afterId, limit, userId) => eventsAfter(sql, afterId, limit, userId),
    bounds: () => eventBounds(sql),
    prune: (keptSeconds, keptCount) => pruneEvents(sql, keptSeconds, keptCount),
    tokenOwners: (tokens) => tokenOwners(sql, tokens),
    onAppended(listener) {
      listeners.push(listener);
    },
    appended() {
      for (const listener of listeners) listener();
    },
  };
}
