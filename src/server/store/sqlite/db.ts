// Opens the SQLite database and brings its schema up to date.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { hashToken } from "../../tokens.ts";
import { DatabaseOpenError } from "../open-error.ts";
import { MIGRATIONS } from "./migrations.ts";

export function openDatabase(path: string): DatabaseSync {
  const inMemory = path === ":memory:" || path === "";
  const db = inMemory ? new DatabaseSync(":memory:") : openPrivateFile(path);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    if (!inMemory) db.exec("PRAGMA journal_mode = WAL");
    // With WAL, NORMAL loses nothing when the process dies: a commit has reached the
    // WAL file before the response goes out. Only a power cut can drop the last commits.
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    // Migration 2 hashes the plain tokens of older databases.
    db.function("parley_sha256", { deterministic: true }, (text) => hashToken(String(text)));
    migrate(db);
  } catch (error) {
    if (db.isOpen) db.close();
    // Not a database, a read-only one, a disk that is full: what SQLite says, in one line.
    if ((error as { code?: string }).code === "ERR_SQLITE_ERROR") {
      throw new DatabaseOpenError(`Cannot open the database ${path}: ${(error as Error).message}.`);
    }
    throw error;
  }
  return db;
}

export { DatabaseOpenError };

/**
 * The database holds tokens and messages: a new one is created 0600 in a 0700 folder
 * (SQLite gives its -wal and -shm files the database's mode).
 */
function openPrivateFile(path: string): DatabaseSync {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, "a", 0o600));
    return new DatabaseSync(path);
  } catch (error) {
    throw new DatabaseOpenError(`Cannot open the database ${path}: ${(error as Error).message}.`);
  }
}

function migrate(db: DatabaseSync): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const row = db.prepare("SELECT max(version) AS version FROM schema_version").get() as
    | { version: number | null }
    | undefined;
  const current = row?.version ?? 0;
  if (current > MIGRATIONS.length) {
    throw new DatabaseOpenError(
      `The database has schema version ${current}, newer than this server knows (${MIGRATIONS.length}). Use a newer parley.`,
    );
  }
  const record = db.prepare("INSERT INTO schema_version (version) VALUES (?)");
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    transaction(db, () => {
      db.exec(MIGRATIONS[version - 1]!);
      record.run(version);
    });
  }
}

/** Runs `fn` in a transaction; inside one already, it simply joins it. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
