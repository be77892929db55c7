// The events table on SQLite: appended inside the changes' transactions (index.ts), read by
// the instance's one reader and by resuming streams. One process holds the file, so an
// in-process list of listeners is all the waking there is.
import type { DatabaseSync } from "node:sqlite";
import type { EventType, StoredEvent } from "../store.ts";
import { transaction } from "./db.ts";

type Row = {
  id: number;
  type: EventType;
  conversation_id: string;
  resource_id: string;
  recipients: string;
};

const PRUNED = "events_pruned_through";

const toEvent = (row: Row): StoredEvent => ({
  id: row.id,
  type: row.type,
  conversationId: row.conversation_id,
  resourceId: row.resource_id,
  recipients: JSON.parse(row.recipients) as string[],
});

export function createEventStore(db: DatabaseSync) {
  const append = db.prepare(
    `INSERT INTO events (type, conversation_id, resource_id, recipients) VALUES (?, ?, ?, ?)`,
  );
  const appendForMembers = db.prepare(
    `INSERT INTO events (type, conversation_id, resource_id, recipients)
     SELECT ?, ?, ?, json_group_array(user_id) FROM memberships WHERE conversation_id = ?`,
  );
  const after = db.prepare(
    "SELECT id, type, conversation_id, resource_id, recipients FROM events WHERE id > ? ORDER BY id LIMIT ?",
  );
  const afterFor = db.prepare(
    `SELECT id, type, conversation_id, resource_id, recipients FROM events
     WHERE id > ? AND EXISTS (SELECT 1 FROM json_each(events.recipients) WHERE value = ?)
     ORDER BY id LIMIT ?`,
  );
  const newest = db.prepare(
    "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS id",
  );
  const pruned = db.prepare(`SELECT value FROM meta WHERE key = '${PRUNED}'`);
  const prune = db.prepare(
    `DELETE FROM events WHERE created_at < unixepoch() - ?
       AND id <= (SELECT max(id) FROM events) - ?
     RETURNING id`,
  );
  const setPruned = db.prepare(
    `INSERT INTO meta (key, value) VALUES ('${PRUNED}', ?)
     ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))`,
  );
  const tokenOwners = db.prepare(
    "SELECT hash AS token, user_id AS id FROM tokens WHERE hash IN (SELECT value FROM json_each(?))",
  );
  const listeners: (() => void)[] = [];
  let appended = false;

  return {
    /** One event for `recipients`, or for every member of the conversation now. */
    append(
      type: EventType,
      conversationId: string,
      resourceId: string,
      recipients: readonly string[] | "members",
    ): void {
      if (recipients === "members") {
        appendForMembers.run(type, conversationId, resourceId, conversationId);
      } else if (recipients.length > 0) {
        append.run(type, conversationId, resourceId, JSON.stringify(recipients));
      }
      appended = true;
    },
    /** After a transaction that appended: wakes the reader. */
    notify(): void {
      if (!appended) return;
      appended = false;
      for (const listener of listeners) listener();
    },
    after(afterId: number, limit: number, userId?: string): StoredEvent[] {
      const rows =
        userId === undefined ? after.all(afterId, limit) : afterFor.all(afterId, userId, limit);
      return (rows as Row[]).map(toEvent);
    },
    bounds() {
      const row = pruned.get() as { value: string } | undefined;
      return { newest: (newest.get() as { id: number }).id, pruned: Number(row?.value ?? 0) };
    },
    prune(keptSeconds: number, keptCount: number): void {
      transaction(db, () => {
        let through = 0;
        for (const row of prune.all(keptSeconds, keptCount) as { id: number }[])
          through = Math.max(through, row.id);
        if (through > 0) setPruned.run(String(through));
      });
    },
    tokenOwners(tokens: readonly string[]): Map<string, string> {
      const rows = tokenOwners.all(JSON.stringify(tokens)) as { token: string; id: string }[];
      return new Map(rows.map((row) => [row.token, row.id]));
    },
    onAppended(listener: () => void): void {
      listeners.push(listener);
    },
  };
}
