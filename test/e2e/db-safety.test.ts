// What `--db` may do to the files it is pointed at, with the built CLI: a file that is not
// parley's database is refused in one line and left exactly as it was (mode and bytes);
// `users` and `groups` never make a database (a typo of a path is exit 2, nothing made);
// a URL that is not PostgreSQL's is refused; a PostgreSQL host that accepts the
// connection and never answers is given up on after connect_timeout, in one line.
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "./tmux.ts";

const home = mkdtempSync(join(tmpdir(), "parley-db-safety-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function parley(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, XDG_DATA_HOME: join(home, "data"), PARLEY_DATABASE_URL: "" },
  });
}

/** One line on stderr, nothing on stdout, and the exit code. */
function refused(result: SpawnSyncReturns<string>, code: number): string {
  expect(result.stdout).toBe("");
  expect(result.stderr.trimEnd().split("\n"), result.stderr).toHaveLength(1);
  expect(result.status, result.stderr).toBe(code);
  return result.stderr.trimEnd();
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("--db pointed at a file that is not parley's database", () => {
  const passwd = join(home, "passwd");
  writeFileSync(passwd, "root:x:0:0:root:/root:/bin/bash\n");
  chmodSync(passwd, 0o644);
  const other = join(home, "other.sqlite");
  const raw = new DatabaseSync(other);
  raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
  raw.close();
  chmodSync(other, 0o644);

  it.each([
    ["users", "list"],
    ["users", "add", "erin"],
    ["groups", "list"],
  ])("parley %s %s refuses it in one line and leaves it as it was", (...args) => {
    const before = readFileSync(passwd);
    const line = refused(parley(...args, "--db", passwd), 1);
    expect(line).toBe(
      `parley: Cannot open the database ${passwd}: it is not a database (not a SQLite file); it was left as it was.`,
    );
    expect(readFileSync(passwd)).toEqual(before);
    expect(mode(passwd)).toBe(0o644);
  });

  it("parley serve refuses it too, and another program's SQLite database, untouched", () => {
    expect(refused(parley("serve", "--port", "0", "--db", passwd), 1)).toMatch(
      /not a database \(not a SQLite file\)/,
    );
    const before = readFileSync(other);
    expect(refused(parley("serve", "--port", "0", "--db", other), 1)).toBe(
      `parley: Cannot open the database ${other}: it is a SQLite database, but not parley's; it was left as it was.`,
    );
    expect(refused(parley("users", "list", "--db", other), 1)).toMatch(/but not parley's/);
    expect(readFileSync(other)).toEqual(before);
    expect(mode(other)).toBe(0o644);
    expect(readdirSync(home).filter((f) => f.startsWith("other.sqlite-"))).toEqual([]);
  });
});

describe("users and groups on a database that is not there", () => {
  it("say so, exit 2 and make nothing: no file, no folders", () => {
    const typo = join(home, "sever.db");
    expect(refused(parley("users", "add", "erin", "--db", typo), 2)).toBe(
      `parley: There is no parley database at ${typo}: parley serve (or parley ssh) makes one; check --db.`,
    );
    expect(existsSync(typo)).toBe(false);
    const deep = join(home, "nonexistent", "dir", "x.db");
    expect(refused(parley("users", "list", "--db", deep), 2)).toMatch(
      /^parley: There is no parley/,
    );
    expect(refused(parley("groups", "list", "--db", deep), 2)).toMatch(
      /^parley: There is no parley/,
    );
    expect(existsSync(join(home, "nonexistent"))).toBe(false);
    // The default database (server.db in the data folder) is not made either.
    expect(refused(parley("users", "list"), 2)).toMatch(/server\.db: parley serve/);
    expect(existsSync(join(home, "data"))).toBe(false);
  });

  it("once parley serve has made it, users add works on it, 0600", async () => {
    const db = join(home, "made", "team.db");
    const serve = spawn(process.execPath, [CLI, "serve", "--port", "0", "--db", db], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => serve.once("exit", resolve));
    await new Promise((resolve) => serve.stdout.once("data", resolve));
    serve.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(mode(db)).toBe(0o600);
    const added = parley("users", "add", "erin", "--db", db);
    expect(added.status, added.stderr).toBe(0);
    expect(parley("users", "list", "--db", db).stdout).toMatch(/^erin\s+ct_erin/m);
  });
});

describe("--db with a URL", () => {
  it("refuses a scheme that is not PostgreSQL's, and makes no file named after it", () => {
    for (const command of [
      ["users", "list"],
      ["serve", "--port", "0"],
    ]) {
      const result = spawnSync(process.execPath, [CLI, ...command, "--db", "mysql://x@host/db"], {
        encoding: "utf8",
        cwd: home,
        timeout: 30_000,
      });
      expect(refused(result, 2)).toBe(
        "parley: parley keeps its data in a SQLite file or in PostgreSQL (postgres://…), not in mysql://.",
      );
    }
    expect(existsSync(join(home, "mysql:"))).toBe(false);
  });

  it("says in one line that a PostgreSQL URL is malformed, without echoing it", () => {
    const line = refused(parley("users", "list", "--db", "postgres://u:hunter2@bad host/db"), 2);
    expect(line).toMatch(/^parley: The PostgreSQL URL is not valid: write it as postgres:\/\//);
    expect(line).not.toContain("hunter2");
  });

  describe("a PostgreSQL host that accepts and never answers", () => {
    let silent: Server;
    let port = 0;
    const held: import("node:net").Socket[] = [];
    afterAll(() => {
      for (const socket of held) socket.destroy();
      silent?.close();
    });

    async function listen(): Promise<number> {
      silent = createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      return (silent.address() as import("node:net").AddressInfo).port;
    }

    it.each([
      [["users", "list"], ""],
      [["serve", "--port", "0"], ""],
      [["users", "list"], "?connect_timeout=1"],
    ])("%j gives up after connect_timeout%s, in one line", async (command, query) => {
      port ||= await listen();
      const seconds = query === "" ? 5 : 1;
      const result = await new Promise<SpawnSyncReturns<string>>((resolve) => {
        // Asynchronous: the listener runs in this process.
        const child = spawn(
          process.execPath,
          [CLI, ...command, "--db", `postgres://u:hunter2@127.0.0.1:${port}/chat${query}`],
          { stdio: ["ignore", "pipe", "pipe"] },
        );
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.once("exit", (status) =>
          resolve({ status, stdout, stderr } as SpawnSyncReturns<string>),
        );
      });
      expect(refused(result, 1)).toBe(
        `parley: Cannot connect to PostgreSQL at 127.0.0.1:${port}/chat: no answer within ${seconds} s (connect_timeout=SECONDS in the URL waits longer).`,
      );
    });
  });
});

describe("a name that cannot be one", () => {
  it("is echoed as typed (accents kept, controls escaped), in one line, exit 2", () => {
    for (const [name, shown] of [
      ["josé", '"josé"'],
      ["bad\u001b[2Jname", '"bad\\x1b[2Jname"'],
    ] as const) {
      const result = parley("users", "add", name, "--db", join(home, "x.db"));
      expect(result.status).toBe(2);
      expect(result.stderr.split("\n")[0]).toBe(
        `parley: ${shown} cannot be a user name: use 1 to 32 of a-z (no capitals or accents), 0-9, ".", "_" or "-", starting with a letter or digit.`,
      );
    }
  });
});
