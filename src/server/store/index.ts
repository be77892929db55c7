// Opens the store a location names: a postgres:// URL is PostgreSQL (loaded only then),
// anything else a SQLite file path or ":memory:". Any other URL is refused: a typo of a
// scheme must not become a SQLite file named after it.

import { DatabaseOpenError } from "./errors.ts";
import type { PostgresOptions } from "./postgres/index.ts";
import { openSqliteStore } from "./sqlite/index.ts";
import type { Store } from "./store.ts";

export type { Store } from "./store.ts";

export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

export type OpenStoreOptions = PostgresOptions & {
  /** Make the database when it is not there (default false): only a server does. */
  create?: boolean;
};

export async function openStore(location: string, options: OpenStoreOptions = {}): Promise<Store> {
  const create = options.create ?? false;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location);
  if (scheme && !isPostgresUrl(location)) {
    throw new DatabaseOpenError(
      `parley keeps its data in a SQLite file or in PostgreSQL (postgres://…), not in ${scheme[1]!.slice(0, 20).replace(/[^\x20-\x7e]/g, "?")}://.`,
      2,
    );
  }
  if (!isPostgresUrl(location)) return openSqliteStore(location, { create });
  const { openPostgresStore } = await import("./postgres/index.ts");
  return openPostgresStore(location, { ...options, create });
}
