// Which store the server tests run on: the vitest project "postgres" runs the server suite
// and the client's API tests again with PARLEY_TEST_STORE=postgres (test/vitest.config.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, inject } from "vitest";
import type { RunningServer } from "../../src/server/index.ts";
import { createDatabase } from "../postgres/cluster.ts";

export const STORE: "sqlite" | "postgres" =
  process.env.PARLEY_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/**
 * A fresh database for one server: `sqlitePath` (default ":memory:") on SQLite, a new
 * database on the run's cluster on PostgreSQL.
 */
export async function freshDb(sqlitePath = ":memory:"): Promise<string> {
  if (STORE === "sqlite") return sqlitePath;
  return createDatabase(inject("postgresUrl"));
}

/** Runs one query on the database directly (`$1`-style parameters), for tests that look inside. */
export async function rawQuery<T>(db: string, text: string, params: string[] = []): Promise<T[]> {
  if (STORE === "sqlite") {
    const { DatabaseSync } = await import("node:sqlite");
    const raw = new DatabaseSync(db, { readOnly: true });
    try {
      return raw.prepare(text.replace(/\$\d+/g, "?")).all(...params) as T[];
    } finally {
      raw.close();
    }
  }
  const { default: postgres } = await import("postgres");
  const sql = postgres(db, { max: 1, onnotice: () => {} });
  try {
    return (await sql.unsafe(text, params)) as unknown as T[];
  } finally {
    await sql.end();
  }
}

/** A fresh database as `parley serve` leaves it (only a server makes one): for `parley users`. */
export async function madeDb(sqlitePath?: string): Promise<string> {
  const db = await freshDb(sqlitePath);
  const { openStore } = await import("../../src/server/store/index.ts");
  await (await openStore(db, { create: true })).close();
  return db;
}

/**
 * A folder of the test file's own (for database files) and the servers it starts: after
 * the file's tests, the servers are closed, then the folder removed.
 */
export function folderForFile(prefix: string): { dir: string; running: RunningServer[] } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const running: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, running };
}
