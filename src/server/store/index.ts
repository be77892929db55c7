// Opens the store a location names: a postgres:// URL is PostgreSQL (loaded only then),
// anything else a SQLite file path or ":memory:".

import type { PostgresOptions } from "./postgres/index.ts";
import { openSqliteStore } from "./sqlite/index.ts";
import type { Store } from "./store.ts";

export type { Store } from "./store.ts";

export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

export async function openStore(
  location: string,
  postgresOptions?: PostgresOptions,
): Promise<Store> {
  if (!isPostgresUrl(location)) return openSqliteStore(location);
  const { openPostgresStore } = await import("./postgres/index.ts");
  return openPostgresStore(location, postgresOptions);
}
