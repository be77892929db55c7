// Opens the SQLite database and brings its schema up to date.
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  type Stats,
} from "node:fs";
import { basename, dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { hashToken } from "../../tokens.ts";
import { DatabaseOpenError, newerSchema, noDatabase } from "../errors.ts";
import { MIGRATIONS } from "./migrations.ts";

export type OpenOptions = {
  /** Make the file (and its folders) when it is not there: only a server does. */
  create: boolean;
};

export function openDatabase(path: string, options: OpenOptions = { create: true }): DatabaseSync {
  const inMemory = path === ":memory:" || path === "";
  const db = inMemory ? new DatabaseSync(":memory:") : openPrivateFile(path, options.create);
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
    // A read-only one, a disk that is full: what SQLite says, in one line.
    if ((error as { code?: string }).code === "ERR_SQLITE_ERROR") {
      throw new DatabaseOpenError(`Cannot open the database ${path}: ${(error as Error).message}.`);
    }
    throw error;
  }
  return db;
}

export { DatabaseOpenError };

const SQLITE_HEADER = "SQLite format 3\0";

/**
 * The database holds tokens and messages: a file parley makes is 0600 in a 0700 folder, and
 * it is never opened through a symbolic link (which could point the tokens anywhere). A
 * file found there is first read, never written: anything but a SQLite database, or a
 * SQLite database of another program's, is refused as it is, its mode untouched. A
 * database of parley's made looser (and its -wal / -shm) is tightened, as is a folder
 * named "parley" (its own data folder), never /tmp or a user's folder.
 */
function openPrivateFile(path: string, create: boolean): DatabaseSync {
  const cannot = (why: string) =>
    new DatabaseOpenError(`Cannot open the database ${path}: ${why}.`);
  const found = foundFile(path, cannot);
  if (found === undefined && !create) throw noDatabase(path);
  let db: DatabaseSync;
  try {
    // SQLite would follow a link of its -wal or -shm: refused before it opens anything.
    for (const suffix of ["-wal", "-shm", "-journal"]) refuseLink(`${path}${suffix}`);
    if (found === undefined) makeFile(path);
    db = new DatabaseSync(path);
  } catch (error) {
    if (error instanceof DatabaseOpenError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw cannot(code === "ELOOP" ? "it is a symbolic link" : (error as Error).message);
  }
  if (found !== undefined) {
    const tables = listTables(db, path);
    if (!tables.includes("schema_version")) {
      const others = tables.length > 0;
      if (others || !create) db.close();
      if (others) throw cannot("it is a SQLite database, but not parley's; it was left as it was");
      if (!create) throw noDatabase(path);
    }
  }
  // parley's own, or just made: keep it private.
  try {
    const folder = dirname(path);
    if (basename(folder) === "parley") tighten(folder, lstatSync(folder), 0o700);
    for (const suffix of ["", "-wal", "-shm", "-journal"]) tightenIfExists(`${path}${suffix}`);
  } catch (error) {
    db.close();
    throw cannot((error as Error).message);
  }
  return db;
}

/** What is at `path` now (undefined: nothing), checked to be a SQLite file without writing it. */
function foundFile(path: string, cannot: (why: string) => Error): Stats | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw cannot(code === "ELOOP" ? "it is a symbolic link" : (error as Error).message);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw cannot("it is not a regular file");
    // Read even when the size says 0: files of /proc say so and are not empty.
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, head, 0, head.length, 0);
    if (read > 0 && head.toString("latin1") !== SQLITE_HEADER) {
      throw cannot("it is not a database (not a SQLite file); it was left as it was");
    }
    return stat;
  } finally {
    closeSync(fd);
  }
}

function makeFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // O_EXCL: made here and now, by parley; 0600 from the start.
  closeSync(
    openSync(
      path,
      constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    ),
  );
}

function listTables(db: DatabaseSync, path: string): string[] {
  try {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    return rows.map((row) => String(row.name));
  } catch (error) {
    db.close();
    throw new DatabaseOpenError(`Cannot open the database ${path}: ${(error as Error).message}.`);
  }
}

/** A file or folder of ours that others may read (or more than `mode` allows). */
const ownedLoosely = (stat: Stats, mode: number) =>
  stat.uid === process.getuid?.() && (stat.mode & 0o777 & ~mode) !== 0;

function tighten(path: string, stat: Stats, mode: number): void {
  if (ownedLoosely(stat, mode)) chmodSync(path, mode);
}

function lstatIfExists(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function refuseLink(file: string): void {
  if (lstatIfExists(file)?.isSymbolicLink()) {
    throw new DatabaseOpenError(`Cannot open the database: ${file} is a symbolic link.`);
  }
}

function tightenIfExists(file: string): void {
  const stat = lstatIfExists(file);
  if (stat?.isFile()) tighten(file, stat, 0o600);
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
