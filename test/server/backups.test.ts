// docs/team.md "Backups and restores", run: its sh blocks, in order, as an operator would
// (`parley` is the CLI from source), on SQLite in the sqlite project and on the test
// cluster in the postgres project. The backup is 0600, and a restore brings back the
// data as it was at the backup, without what came after, uploaded files included.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { runUsers } from "../../src/server/users-cli.ts";
import { installParley } from "../e2e/operator.ts";
import { postgresBin } from "../postgres/cluster.ts";
import { onPath } from "../processes.ts";
import { madeDb, STORE } from "./stores.ts";

const CLI = new URL("../../src/cli.ts", import.meta.url).pathname;
const doc = readFileSync(new URL("../../docs/team.md", import.meta.url), "utf8");
const section = doc.split(/^## Backups and restores\n/m)[1]?.split(/\n## /)[0] ?? "";
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((b) => b[1]!);

const home = mkdtempSync(join(tmpdir(), "parley-backups-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
/** Uploads `bytes` as `token`'s file; the path of its URL (served by any server on that data). */
async function upload(url: string, token: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), "kept.bin");
  const reply = await fetch(`${url}/v1/files`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(reply.status).toBe(201);
  return new URL(((await reply.json()) as { file_url: string }).file_url).pathname;
}

/** The uploaded file, fetched from a server started on `db`: the backup held it. */
async function fetchedFrom(db: string, path: string): Promise<Buffer> {
  const server = await startServer({ db });
  try {
    return Buffer.from(await (await fetch(server.url + path)).arrayBuffer());
  } finally {
    await server.close();
  }
}

function shell(env: NodeJS.ProcessEnv) {
  const bin = installParley(home, CLI);
  const path = [bin, postgresBin(), process.env.PATH].filter(Boolean).join(":");
  return (block: string) => {
    const result = spawnSync("bash", ["-euo", "pipefail", "-c", block], {
      cwd: home,
      env: { ...env, PATH: path, HOME: home },
      encoding: "utf8",
    });
    expect(result.status, `${block}\n${result.stderr}`).toBe(0);
    return result.stdout;
  };
}

describe("docs/team.md's backups", () => {
  it("has the SQLite and the PostgreSQL steps", () => {
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toContain(".backup");
    expect(blocks[1]).toContain(".restore");
    expect(blocks[2]).toContain("pg_restore");
  });

  it.skipIf(STORE !== "sqlite" || !onPath("sqlite3"))(
    "back up SQLite 0600 while it runs, and restore it",
    async () => {
      const db = join(home, ".local", "share", "parley", "server.db");
      const server = await startServer({ db });
      const token = (await runUsers(db, ["add", "alice"])).out[0]!;
      const bytes = randomBytes(600 * 1024);
      const file = await upload(server.url, token, bytes);
      const run = shell({});
      run(blocks[0]!);
      expect(statSync(join(home, "server-backup.db")).mode & 0o777).toBe(0o600);
      await runUsers(db, ["add", "later"]);
      await server.close();
      const listed = run(blocks[1]!);
      expect(listed).toMatch(/^alice\s+ct_alice/m);
      expect(listed).not.toContain("later");
      expect((await fetchedFrom(db, file)).equals(bytes)).toBe(true);
    },
  );

  it.skipIf(STORE !== "postgres")(
    "dump PostgreSQL 0600 and restore it into a new database",
    async () => {
      const url = await madeDb();
      const token = (await runUsers(url, ["add", "alice"])).out[0]!;
      const bytes = randomBytes(600 * 1024);
      const server = await startServer({ db: url });
      const file = await upload(server.url, token, bytes).finally(() => server.close());
      const restored = new URL(url);
      restored.pathname = "/parley_restored";
      const run = shell({ PARLEY_DATABASE_URL: url, PARLEY_RESTORED_URL: restored.toString() });
      const listed = run(blocks[2]!);
      expect(statSync(join(home, "parley.dump")).mode & 0o777).toBe(0o600);
      expect(listed).toMatch(/^alice\s+ct_alice/m);
      expect((await fetchedFrom(restored.toString(), file)).equals(bytes)).toBe(true);
    },
  );
});
