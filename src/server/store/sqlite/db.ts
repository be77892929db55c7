// Opens the SQLite database and brings its schema up to date.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { MIGRATIONS } from "./migrations.ts";

export function openDatabase(path: string): DatabaseSync {
  const inMemory = path === ":memory:" || path === "";
  const db = inMemory ? new DatabaseSync(":memory:") : openPrivateFile(path);
  db.exec("PRAGMA busy_timeout = 5000");
  // The first read of the file: what SQLite cannot use (not a database, a file it cannot
  // lock) is said in one line, as a file that cannot be opened is.
  if (!inMemory) asOpenError(path, () => db.exec("PRAGMA journal_mode = WAL"));
  // With WAL, NORMAL loses nothing when the process dies: a commit has reached the
  // WAL file before the response goes out. Only a power cut can drop the last commits.
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db);
  return db;
}

/** An error a person can act on, shown as one line (src/cli.ts), never as a stack trace. */
export class DatabaseOpenError extends Error {
  readonly expected = true;
}

/**
 * The database holds tokens and messages: a new one is created 0600 in a 0700 folder
 * (SQLite gives its -wal and -shm files the database's mode).
 */
function openPrivateFile(path: string): DatabaseSync {
  // Not files but the kernel's: a read may wait for ever (a terminal, a log), or fail late.
  const system = /^\/(proc|sys)(?=\/|$)/.exec(resolve(path))?.[0];
  if (system) {
    throw new DatabaseOpenError(
      `Cannot open the database ${path}: ${system} holds the system's files, not a database.`,
    );
  }
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, "a", 0o600));
    return new DatabaseSync(path);
  } catch (error) {
    throw new DatabaseOpenError(`Cannot open the database ${path}: ${(error as Error).message}.`);
  }
}

function asOpenError(path: string, run: () => void): void {
  try {
    run();
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
    throw new Error(
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
