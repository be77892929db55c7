// A database problem a person can act on (a file they cannot open, a schema newer than
// this parley, a PostgreSQL that refuses the connection): shown as one line (src/cli.ts),
// never as a stack trace.
export class DatabaseOpenError extends Error {
  readonly expected = true;
}

export const newerSchema = (current: number, known: number) =>
  new DatabaseOpenError(
    `The database has schema version ${current}, newer than this server knows (${known}). Use a newer parley.`,
  );
