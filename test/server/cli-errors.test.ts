// Database problems an operator can meet are one line from `parley serve`, never a stack
// trace: a schema newer than this parley, a file that is not a database, a PostgreSQL
// that refuses the connection (without the password in the line). Runs the CLI from source.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { freshDb, rawQuery, STORE } from "./stores.ts";

const CLI = new URL("../../src/cli.ts", import.meta.url).pathname;

function serve(db: string) {
  const result = spawnSync(process.execPath, [CLI, "serve", "--port", "0", "--db", db], {
    encoding: "utf8",
    timeout: 20_000,
  });
  expect(result.status).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

describe("parley serve's database errors", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-cli-db-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("say in one line that the schema is newer than this parley", async () => {
    const db = await freshDb(join(dir, "newer.db"));
    await (await startServer({ db })).close();
    if (STORE === "sqlite") {
      const { DatabaseSync } = await import("node:sqlite");
      const raw = new DatabaseSync(db);
      raw.exec("INSERT INTO schema_version (version) VALUES (999)");
      raw.close();
    } else {
      await rawQuery(db, "INSERT INTO schema_version (version) VALUES (999)");
    }
    expect(serve(db)).toMatch(/^parley: The database has schema version 999, newer than/);
  });

  it.skipIf(STORE !== "sqlite")("say in one line that a file is not a database", () => {
    const db = join(dir, "garbage.db");
    writeFileSync(db, "not a database, not at all, just text that is long enough\n".repeat(20));
    expect(serve(db)).toBe(
      `parley: Cannot open the database ${db}: it is not a database (not a SQLite file); it was left as it was.`,
    );
  });

  it.skipIf(STORE !== "postgres")(
    "users and groups refuse a PostgreSQL database without parley's tables, exit 2",
    async () => {
      const db = await freshDb();
      for (const command of [
        ["users", "list"],
        ["groups", "list"],
        ["users", "add", "erin"],
      ]) {
        const result = spawnSync(process.execPath, [CLI, ...command, "--db", db], {
          encoding: "utf8",
          timeout: 20_000,
        });
        expect(result.status, result.stderr).toBe(2);
        expect(result.stderr).toMatch(
          /^parley: There is no parley database at PostgreSQL at [^ ]+: parley serve \(or parley ssh\) makes one; check --db\.\n$/,
        );
      }
      expect(await rawQuery(db, "SELECT to_regclass('users')::text AS t")).toEqual([{ t: null }]);
    },
  );

  it.skipIf(STORE !== "sqlite")(
    "say in one line where PostgreSQL refused, without the password",
    () => {
      const line = serve("postgres://parley:hunter2@127.0.0.1:1/chat");
      expect(line).toMatch(
        /^parley: Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/chat: .*ECONNREFUSED/,
      );
      expect(line).not.toContain("hunter2");
    },
  );
});
