// The people of a server: `parley users` / `parley groups` (their functions, on SQLite and
// PostgreSQL), tokens kept as hashes, an older database's plain tokens migrated, the
// contact search extension, and the Parley-Server-Id header.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { hashToken } from "../../src/server/tokens.ts";
import {
  runGroups,
  runUsers,
  type Said,
  UsersError,
  UsersUsageError,
} from "../../src/server/users-cli.ts";
import { until } from "../wait.ts";
import { clientFor, contactConversation, groupConversation, message } from "./helpers.ts";
import { openEvents } from "./sse.ts";
import { folderForFile, freshDb, madeDb, rawQuery, STORE } from "./stores.ts";

const { dir, running } = folderForFile("parley-people");

let n = 0;
const newDb = () => madeDb(join(dir, `people-${n++}.db`));
const tokenOf = (said: Said) => said.out.at(-1)!;

async function serve(db: string) {
  const server = await startServer({ db, demoReplies: false });
  running.push(server);
  return server;
}

describe("parley users", () => {
  it("adds people whose printed token signs in, kept only as its hash", async () => {
    const db = await newDb();
    const bob = tokenOf(await runUsers(db, ["add", "bob"]));
    const carol = tokenOf(await runUsers(db, ["add", "carol"]));
    expect(bob).toMatch(/^prly_[\w-]{32}$/);
    const stored = await rawQuery<{ hash: string }>(db, "SELECT hash FROM tokens ORDER BY hash");
    expect(stored.map((r) => r.hash).sort()).toEqual([hashToken(bob), hashToken(carol)].sort());
    const dump = JSON.stringify(await rawQuery(db, "SELECT * FROM users"));
    expect(dump).not.toContain(bob);

    const server = await serve(db);
    const asBob = clientFor(server.url, bob);
    const id = await contactConversation(asBob, "ct_carol");
    message(await asBob.post("/v1/messages", { conversation_id: id, message: "hi carol" }));
    const asCarol = clientFor(server.url, carol);
    expect((await asCarol.get("/v1/messages", { conversation_id: id })).body.data[0].message).toBe(
      "hi carol",
    );
    expect((await runUsers(db, ["list"])).out.join("\n")).toMatch(/bob\s+ct_bob\s+1\s/);
  });

  it("rotates and revokes tokens, and removes people but keeps what they wrote", async () => {
    const db = await newDb();
    const first = tokenOf(await runUsers(db, ["add", "dave"]));
    const erin = tokenOf(await runUsers(db, ["add", "erin"]));
    const server = await serve(db);
    const id = await contactConversation(clientFor(server.url, first), "ct_erin");
    await clientFor(server.url, first).post("/v1/messages", { conversation_id: id, message: "x" });

    const second = tokenOf(await runUsers(db, ["token", "dave"]));
    expect(second).not.toBe(first);
    expect((await clientFor(server.url, first).get("/v1/conversations")).status).toBe(401);
    expect((await clientFor(server.url, second).get("/v1/conversations")).status).toBe(200);

    await runUsers(db, ["revoke", "dave"]);
    expect((await clientFor(server.url, second).get("/v1/conversations")).status).toBe(401);
    expect((await runUsers(db, ["list"])).out.join("\n")).toMatch(/dave\s+ct_dave\s+0\s.*no token/);

    const third = tokenOf(await runUsers(db, ["token", "dave"]));
    await runUsers(db, ["remove", "dave"]);
    expect((await clientFor(server.url, third).get("/v1/conversations")).status).toBe(401);
    expect((await runUsers(db, ["list"])).out.join("\n")).toMatch(/dave\s+ct_dave\s+0\s.*removed/);
    // erin still reads what dave wrote.
    const page = await clientFor(server.url, erin).get("/v1/messages", { conversation_id: id });
    expect(page.body.data.map((m: { message: string }) => m.message)).toEqual(["x"]);
  });

  it("says what is wrong in one line", async () => {
    const db = await newDb();
    await runUsers(db, ["add", "frank"]);
    await expect(runUsers(db, ["add", "frank"])).rejects.toThrow(UsersError);
    await expect(runUsers(db, ["add", "frank"])).rejects.toThrow(/already a user "frank"/);
    await expect(runUsers(db, ["token", "nobody"])).rejects.toThrow(/no user "nobody"/);
    await expect(runUsers(db, ["add", "Bad Name"])).rejects.toThrow(UsersUsageError);
    await expect(runUsers(db, ["frobnicate"])).rejects.toThrow(/Unknown action/);
    await expect(runUsers(db, [])).rejects.toThrow(/Say what to do/);
  });
});

describe("people(), how parley ssh signs its sessions in", () => {
  it("gives each person a token of this process only, gone once they are removed", async () => {
    const db = await newDb();
    await runUsers(db, ["add", "gil"]);
    const server = await serve(db);
    const [gil] = await server.people();
    expect(gil).toMatchObject({ username: "gil", contactId: "ct_gil" });
    expect((await server.people())[0]!.token).toBe(gil!.token);
    expect(
      await rawQuery(db, "SELECT hash FROM tokens WHERE hash = $1", [hashToken(gil!.token)]),
    ).toEqual([]);
    expect((await clientFor(server.url, gil!.token).get("/v1/conversations")).status).toBe(200);
    await runUsers(db, ["remove", "gil"]);
    expect(await server.people()).toEqual([]);
    expect((await clientFor(server.url, gil!.token).get("/v1/conversations")).status).toBe(401);
  });

  it("never logs a session's stream as a person's, when people() heard of the removal first", async () => {
    const db = await newDb();
    await runUsers(db, ["add", "gil"]);
    const log: string[] = [];
    const server = await startServer({ db, demoReplies: false, log: (line) => log.push(line) });
    running.push(server);
    const removed: string[] = [];
    server.onRemoved((name) => removed.push(name));
    const [gil] = await server.people();
    const stream = await openEvents(server.url, gil!.token);
    await runUsers(db, ["remove", "gil"]);
    // Before the removal's event is read (another process's commit is looked for a few
    // times a second): the look at the accounts drops gil's token first.
    expect(await server.people()).toEqual([]);
    await until(() => removed.includes("gil") && stream.ended, "the removal heard");
    // parley ssh says it, as the end of gil's session; the server has nothing to add.
    expect(log.filter((l) => l.includes("ended "))).toEqual([]);
  });
});

describe("parley groups", () => {
  it("makes a group its members can talk in", async () => {
    const db = await newDb();
    const ann = tokenOf(await runUsers(db, ["add", "ann"]));
    const ben = tokenOf(await runUsers(db, ["add", "ben"]));
    expect((await runGroups(db, ["add", "ops"], "ann,ben")).say).toEqual([
      "group ops (id grp_ops): ann, ben",
    ]);
    await expect(runGroups(db, ["add", "x"], "ann,zed")).rejects.toThrow(/No user "zed"/);
    expect((await runGroups(db, ["list"], undefined)).out.join("\n")).toMatch(
      /ops\s+grp_ops\s+ann,ben/,
    );
    const server = await serve(db);
    const id = await groupConversation(clientFor(server.url, ann), "grp_ops");
    expect(await groupConversation(clientFor(server.url, ben), "grp_ops")).toBe(id);
  });
});

describe("GET /v1/contacts", () => {
  it("lists the people the server knows by name, never the caller or the removed", async () => {
    const db = await newDb();
    const tokens: Record<string, string> = {};
    for (const name of ["bo", "bob", "abbot", "bea", "gone"]) {
      tokens[name] = tokenOf(await runUsers(db, ["add", name]));
    }
    await runUsers(db, ["remove", "gone"]);
    const server = await serve(db);
    const bo = clientFor(server.url, tokens.bo!);
    const found = await bo.get("/v1/contacts", { query: "Bo" });
    expect(found.status).toBe(200);
    // Names that start with the text first, then those that contain it.
    expect(found.body).toEqual({
      data: [
        { id: "ct_bob", username: "bob" },
        { id: "ct_abbot", username: "abbot" },
      ],
      has_more: false,
    });
    const all = await bo.get("/v1/contacts", { limit: 2 });
    expect(all.body.data.map((u: { username: string }) => u.username)).toEqual(["abbot", "bea"]);
    expect(all.body.has_more).toBe(true);
    expect((await bo.get("/v1/contacts", { limit: 0 })).status).toBe(400);
    expect((await clientFor(server.url, "nope").get("/v1/contacts")).status).toBe(401);
    expect((await bo.post("/v1/contacts")).status).toBe(405);
  });
});

describe("Parley-Server-Id", () => {
  it("comes with every answer, errors too, and is one per database", async () => {
    const db = await newDb();
    const token = tokenOf(await runUsers(db, ["add", "ida"]));
    const a = await serve(db);
    const b = await serve(db);
    const other = await serve(await newDb());
    expect(a.serverId).toMatch(/^[0-9a-f]{32}$/);
    expect(b.serverId).toBe(a.serverId);
    expect(other.serverId).not.toBe(a.serverId);
    for (const reply of [
      await clientFor(a.url, token).get("/v1/conversations"),
      await clientFor(b.url, "wrong").get("/v1/conversations"),
      await clientFor(a.url, token).get("/v1/nothing-here"),
    ]) {
      expect(reply.headers.get("parley-server-id")).toBe(a.serverId);
    }
  });
});

describe("a database of schema 1 (tokens in plain text)", () => {
  it("is migrated: the same tokens sign in, but the demo's kept in plain text", async () => {
    const db = await freshDb(join(dir, `people-${n++}.db`));
    await makeSchemaOne(db);
    const server = await startServer({ db, demo: true, demoReplies: false });
    running.push(server);
    // alice was a demo user: she still is, with a token of this process, not the old one,
    // which was readable in the database (migration 5 revoked it).
    expect(server.demoUsers.map((u) => u.username)).toEqual(["alice"]);
    expect(server.demoUsers[0]!.token).not.toBe("tok_alice");
    const demoAlice = clientFor(server.url, server.demoUsers[0]!.token);
    expect((await demoAlice.get("/v1/conversations")).status).toBe(200);
    expect((await clientFor(server.url, "tok_alice").get("/v1/conversations")).status).toBe(401);
    const zoe = await clientFor(server.url, "tok_zoe").get("/v1/conversations");
    expect(zoe.status).toBe(200);
    // Not the demo's people: no demo conversations are seeded among them.
    expect(zoe.body.data).toEqual([]);
    const hashes = await rawQuery<{ hash: string }>(db, "SELECT hash FROM tokens ORDER BY hash");
    expect(hashes.map((r) => r.hash)).toEqual([hashToken("tok_zoe")]);
    const marks = await rawQuery<{ token: string }>(db, "SELECT token FROM demo_tokens");
    expect(marks).toEqual([{ token: "" }]);
    if (STORE === "sqlite") {
      // The column SQLite cannot drop holds the id now, no token.
      const rows = await rawQuery<{ token: string }>(db, "SELECT token FROM users ORDER BY id");
      expect(rows.map((r) => r.token)).toEqual(["ct_alice", "ct_zoe"]);
    }
  });
});

/** A database as parley made it before tokens were hashed: schema 1, two users. */
async function makeSchemaOne(db: string): Promise<void> {
  const users = `INSERT INTO users (id, username, token, created_at) VALUES
    ('ct_alice', 'alice', 'tok_alice', 1), ('ct_zoe', 'zoe', 'tok_zoe', 2);
    INSERT INTO schema_version (version) VALUES (1);`;
  if (STORE === "sqlite") {
    const { MIGRATIONS } = await import("../../src/server/store/sqlite/migrations.ts");
    const { DatabaseSync } = await import("node:sqlite");
    const raw = new DatabaseSync(db);
    raw.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    raw.exec(MIGRATIONS[0]!);
    raw.exec(users);
    raw.close();
    return;
  }
  const { MIGRATIONS } = await import("../../src/server/store/postgres/migrations.ts");
  const { default: postgres } = await import("postgres");
  const sql = postgres(db, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe("CREATE TABLE schema_version (version integer NOT NULL)");
    await sql.unsafe(MIGRATIONS[0]!);
    await sql.unsafe(users);
  } finally {
    await sql.end();
  }
}
