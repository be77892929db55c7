// The storage of the reference server: one SQLite database, prepared statements only.

import { createConversationStore } from "./conversations.ts";
import { openDatabase, transaction } from "./db.ts";
import { createIdempotencyStore } from "./idempotency.ts";
import { createMessageStore } from "./messages.ts";
import { createUserStore } from "./users.ts";

export function openStore(path: string) {
  const db = openDatabase(path);
  const getMeta = db.prepare("SELECT value FROM meta WHERE key = ?");
  const setMeta = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
  const changes = db.prepare("SELECT total_changes() AS changes");
  const dataVersion = db.prepare("PRAGMA data_version");
  return {
    users: createUserStore(db),
    conversations: createConversationStore(db),
    messages: createMessageStore(db),
    idempotency: createIdempotencyStore(db),
    meta: {
      get: (key: string) => (getMeta.get(key) as { value: string } | undefined)?.value,
      set: (key: string, value: string) => setMeta.run(key, value),
    },
    transaction: <T>(fn: () => T): T => transaction(db, fn),
    /**
     * Changes whenever the data may have: rows changed through this connection
     * (total_changes) or commits by any other connection to the same file (data_version).
     */
    version(): string {
      const own = (changes.get() as { changes: number }).changes;
      const others = (dataVersion.get() as { data_version: number }).data_version;
      return `${own}.${others}`;
    },
    close(): void {
      if (db.isOpen) db.close();
    },
  };
}

export type Store = ReturnType<typeof openStore>;
