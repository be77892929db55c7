// Opens the SQLite database and brings its schema up to date.
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  type Stats,
} from "node:fs";
import { basename, dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { hashToken } from "../../tokens.ts";
import { DatabaseOpenError, newerSchema } from "../errors.ts";
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
 * The database holds tokens and messages: it is 0600 in a 0700 folder, also when it (or its
 * -wal / -shm files) existed before with looser modes, and it is never opened through a
 * symbolic link (which could point the tokens anywhere). Only a folder parley made, or
 * one named "parley" (its own data folder), is tightened: never /tmp or a user's folder.
 */
function openPrivateFile(path: string): DatabaseSync {
  try {
    const folder = dirname(path);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (basename(folder) === "parley") tighten(folder, lstatSync(folder), 0o700);
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new Error("not a regular file");
      if (ownedLoosely(stat, 0o600)) fchmodSync(fd, 0o600);
    } finally {
      closeSync(fd);
    }
    for (const suffix of ["-wal", "-shm", "-journal"]) tightenIfExists(`${path}${suffix}`);
    return new DatabaseSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ELOOP" ? "it is a symbolic link" : (error as Error).message;
    throw new DatabaseOpenError(`Cannot open the database ${path}: ${why}.`);
  }
}

/** A file or folder of ours that others may read (or more than `mode` allows). */
const ownedLoosely = (stat: Stats, mode: number) =>
  stat.uid === process.getuid?.() && (stat.mode & 0o777 & ~mode) !== 0;

function tighten(path: string, stat: Stats, mode: number): void {
  if (ownedLoosely(stat, mode)) chmodSync(path, mode);
}

function tightenIfExists(file: string): void {
  let stat: Stats;
  try {
    stat = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (stat.isSymbolicLink()) throw new Error(`${file} is a symbolic link`);
  tighten(file, stat, 0o600);
}

function migrate(db: DatabaseSync): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const row = db.prepare("SELECT max(version) AS version FROM schema_version").get() as
    | { version: number | null }
    | undefined;
  const current = row?.version ?? 0;
  if (current > MIGRATIONS.length) throw newerSchema(current, MIGRATIONS.length);
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
