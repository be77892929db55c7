// docs/team.md's "Backups", run: each sh block's commands, in order, against a running
// `parley serve` (the built CLI) that holds a message, then a server started on what the
// commands made, which must still have it. SQLite with the sqlite3 command; PostgreSQL on a
// throwaway cluster (the doc's URL pointed at it), where PostgreSQL is installed.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Cluster, postgresBin, startCluster } from "../postgres/cluster.ts";
import { docCommands, firstLine, operatorEnv } from "./operator.ts";
import { CLI } from "./tmux.ts";

const [sqliteBlock, postgresBlock] = docCommands("team.md", "Backups");
const DOC_SERVER = "postgres://parley:secret@db.internal:5432";

const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

const home = mkdtempSync(join(tmpdir(), "parley-backup-"));
const children: ChildProcess[] = [];
let cluster: Cluster | undefined;
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  cluster?.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Runs one line in bash as the doc has it; its output's lines. */
function run(line: string, env: NodeJS.ProcessEnv): string[] {
  const result = spawnSync("bash", ["-c", line], { cwd: home, env, encoding: "utf8" });
  expect(result.stderr, line).toBe("");
  expect(result.status, line).toBe(0);
  return result.stdout.trimEnd().split("\n");
}

/** `parley serve` on a free port; its address, once it listens. */
async function serve(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], {
    cwd: home,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const first = await firstLine(child, "parley serve");
  const stop = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return { url: first.replace("export PARLEY_BASE_URL=", ""), stop };
}

/** A running server with alice, and a message of hers to bob that a backup must keep. */
async function aMessage(env: NodeJS.ProcessEnv) {
  const alice = run("parley users add alice", env).at(-1)!;
  run("parley users add bob", env);
  const server = await serve([], env);
  const post = async (path: string, body: Record<string, string>) => {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice}` },
      body: new URLSearchParams(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { id: string };
  };
  const conversation = await post("/v1/conversations", { contact_id: "ct_bob" });
  await post("/v1/messages", { conversation_id: conversation.id, message: "kept in the backup" });
  return { token: alice, stop: server.stop };
}

/** What a server started on `db` shows alice. */
async function aliceReads(db: string[], env: NodeJS.ProcessEnv, token: string): Promise<string> {
  const server = await serve(db, env);
  const response = await fetch(`${server.url}/v1/messages`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  await server.stop();
  return text;
}

describe("docs/team.md's Backups", () => {
  it("has a block for SQLite and one for PostgreSQL", () => {
    expect(sqliteBlock?.[0]).toMatch(/^sqlite3 /);
    expect(postgresBlock?.some((line) => line.startsWith("pg_dump "))).toBe(true);
  });

  it.skipIf(!has("sqlite3"))(
    "SQLite: the copy made while the server runs has its message (needs sqlite3)",
    async () => {
      const env = operatorEnv(home);
      const running = await aMessage(env);
      const outputs = sqliteBlock!.map((line) => run(line, env));
      await running.stop();
      expect(outputs.at(-1)!.join("\n")).toMatch(/alice\s+ct_alice/);
      expect(await aliceReads(["--db", "server-backup.db"], env, running.token)).toContain(
        "kept in the backup",
      );
    },
    60_000,
  );

  it.skipIf(!postgresBin())(
    "PostgreSQL: the dump restored into an empty database has its message",
    async () => {
      cluster = await startCluster();
      const server = new URL(cluster.url);
      server.pathname = "";
      const local = (line: string) =>
        line.replaceAll(DOC_SERVER, server.toString().replace(/\/$/, ""));
      execFileSync("createdb", ["--maintenance-db", cluster.url, "parley"]);
      const env = operatorEnv(home);
      let running: Awaited<ReturnType<typeof aMessage>> | undefined;
      const outputs: string[][] = [];
      for (const line of postgresBlock!.map(local)) {
        const exported = /^export ([A-Z_]+)=(.*)$/.exec(line);
        if (exported) {
          env[exported[1]!] = exported[2]!;
          running ??= await aMessage(env);
          continue;
        }
        outputs.push(run(line, env));
      }
      await running!.stop();
      expect(outputs.at(-1)!.join("\n")).toMatch(/alice\s+ct_alice/);
      const restored = local(`${DOC_SERVER}/parley_restored`);
      expect(await aliceReads(["--db", restored], env, running!.token)).toContain(
        "kept in the backup",
      );
    },
    120_000,
  );
});
