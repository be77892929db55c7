/** A database that cannot be used, said in one line a person can act on (src/cli.ts), never a stack trace. */
export class DatabaseOpenError extends Error {
  readonly expected = true;
}
