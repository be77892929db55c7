// A database problem a person can act on (a file they cannot open, a schema newer than
// this parley, a PostgreSQL that refuses the connection): shown as one line (src/cli.ts),
// never as a stack trace.
export class DatabaseOpenError extends Error {
  readonly expected = true;
  /** The CLI's exit code: 1, or 2 when what was asked for is wrong (no database there). */
  readonly exitCode: 1 | 2;

  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

export const newerSchema = (current: number, known: number) =>
  new DatabaseOpenError(
    `The database has schema version ${current}, newer than this server knows (${known}). Use a newer parley.`,
  );

/** `parley users` and `groups` on a database that is not there: only a server makes one. */
export const noDatabase = (where: string) =>
  new DatabaseOpenError(
    `There is no parley database at ${where}: parley serve (or parley ssh) makes one; check --db.`,
    2,
  );
