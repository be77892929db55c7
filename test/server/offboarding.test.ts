// Handing a server over from person to person (issue 38, point 3), on SQLite and
// PostgreSQL: named tokens (several per person, listed, revoked one by one, expiring),
// and `users remove` taking someone out of everything (tokens, groups and the groups'
// conversations, open event streams) until an explicit `users restore`; `groups` adding
// and removing members and refusing unknown or removed people.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { openStore } from "../../src/server/store/index.ts";
import { hashToken, newToken } from "../../src/server/tokens.ts";
import { runGroups, runUsers, UsersUsageError } from "../../src/server/users-cli.ts";
import { until } from "../wait.ts";
import { clientFor, groupConversation } from "./helpers.ts";
import { openEvents } from "./sse.ts";
import { folderForFile, madeDb } from "./stores.ts";

const { dir, running } = folderForFile("parley-offboarding");
let n = 0;
const newDb = () => madeDb(join(dir, `team-${n++}.db`));
const token = async (db: string, ...args: string[]) => (await runUsers(db, args)).out.at(-1)!;
/** Adds these people, one after the other; their first tokens. */
async function added(db: string, ...names: string[]) {
  const tokens: string[] = [];
  for (const name of names) tokens.push(await token(db, "add", name));
  return tokens as [string, string];
}
async function serve(db: string) {
  const server = await startServer({ db, demoReplies: false });
  running.push(server);
  return server;
}
const status = async (url: string, t: string, path = "/v1/conversations") =>
  (await clientFor(url, t).get(path)).status;

describe("named tokens", () => {
  it("several per person, listed with created and last used, revoked one by one", async () => {
    const db = await newDb();
    const laptop = (await runUsers(db, ["add", "alice"], { tokenName: "laptop" })).out[0]!;
    const phone = (await runUsers(db, ["token", "alice"], { tokenName: "phone", expires: "30d" }))
      .out;
    expect(phone).toHaveLength(1);
    expect(phone[0]).toMatch(/^prly_/);
    const server = await serve(db);
    expect(await status(server.url, laptop)).toBe(200);
    expect(await status(server.url, phone[0]!)).toBe(200);

    const listed = (await runUsers(db, ["tokens", "alice"])).out;
    expect(listed[0]).toMatch(/^TOKEN\s+CREATED \(UTC\)\s+LAST USED \(UTC\)\s+EXPIRES \(UTC\)$/);
    expect(listed[1]).toMatch(
      /^laptop\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+never$/,
    );
    expect(listed[2]).toMatch(/^phone\s+\S+ \S+\s+\S+ \S+\s+\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(listed.join("\n")).not.toContain("prly_");

    // Rotating one name leaves the others alone.
    const laptop2 = (await runUsers(db, ["token", "alice"], { tokenName: "laptop" })).out[0]!;
    expect(await status(server.url, laptop)).toBe(401);
    expect(await status(server.url, laptop2)).toBe(200);
    expect(await status(server.url, phone[0]!)).toBe(200);

    const revoked = await runUsers(db, ["revoke", "alice"], { tokenName: "phone" });
    expect(revoked.out).toEqual([]);
    expect(revoked.say.join("\n")).toMatch(/alice's token "phone".*\n.*ssh key .* still signs in/);
    expect(await status(server.url, phone[0]!)).toBe(401);
    expect(await status(server.url, laptop2)).toBe(200);
    await expect(runUsers(db, ["revoke", "alice"], { tokenName: "phone" })).rejects.toThrow(
      /alice has no token "phone"/,
    );
    await expect(runUsers(db, ["token", "alice"], { expires: "soon" })).rejects.toThrow(
      UsersUsageError,
    );
    await expect(runUsers(db, ["token", "alice"], { expires: "2001-01-01" })).rejects.toThrow(
      /not in the future/,
    );
  });

  it("a token past its expiry signs nobody in, and is swept away", async () => {
    const db = await newDb();
    await runUsers(db, ["add", "bob"]);
    const old = newToken();
    const store = await openStore(db);
    const now = Math.floor(Date.now() / 1000);
    expect(
      await store.accounts.addToken(
        "bob",
        { hash: hashToken(old), name: "old", expires_at: now - 1 },
        now,
      ),
    ).toBe("ok");
    await store.close();
    const server = await serve(db);
    expect(await status(server.url, old)).toBe(401);
    await until(
      async () => !(await runUsers(db, ["tokens", "bob"])).out.join("\n").includes("old"),
      "the expired token swept away",
    );
  });
});

describe("users remove", () => {
  it("takes a person out of tokens, groups, conversations and streams, until restored", async () => {
    const db = await newDb();
    const [alice, bob] = await added(db, "alice", "bob");
    await runUsers(db, ["add", "dave"]);
    await runGroups(db, ["add", "team"], "alice,bob,dave");
    const server = await serve(db);
    const team = await groupConversation(clientFor(server.url, alice), "grp_team");
    expect(await status(server.url, bob, `/v1/conversations/${team}`)).toBe(200);
    const stream = await openEvents(server.url, bob);
    expect(stream.status).toBe(200);

    const said = await runUsers(db, ["remove", "bob"]);
    expect(said.say[0]).toMatch(/^removed bob: every token revoked, out of every group/);
    expect(await status(server.url, bob)).toBe(401);
    // The open stream ends within seconds, without a restart.
    await until(() => stream.ended, "bob's stream ended", { timeoutMs: 20_000 });
    expect((await runGroups(db, ["list"], undefined)).out.join("\n")).toMatch(
      /team\s+grp_team\s+alice,dave$/m,
    );

    // No way back but an explicit restore; then not into the groups.
    await expect(runUsers(db, ["token", "bob"])).rejects.toThrow(
      /bob was removed: parley users restore bob first/,
    );
    await expect(runGroups(db, ["add", "eng"], "alice,bob")).rejects.toThrow(/"bob" was removed/);
    expect((await runGroups(db, ["list"], undefined)).out.join("\n")).not.toContain("eng");
    await runUsers(db, ["restore", "bob"]);
    await expect(runUsers(db, ["restore", "bob"])).rejects.toThrow(/bob was not removed/);
    const back = await token(db, "token", "bob");
    expect(await status(server.url, back)).toBe(200);
    expect(await status(server.url, back, `/v1/conversations/${team}`)).toBe(404);
    expect(await status(server.url, back, `/v1/messages?conversation_id=${team}`)).toBe(404);
    expect(await status(server.url, alice, `/v1/conversations/${team}`)).toBe(200);
  });
});

describe("the log of an ended access", () => {
  it("says why a stream ended, even when the tokens' check comes first", async () => {
    // Tokens checked every 20 ms: one such check finds bob's token gone before the removal's
    // event has been read (on SQLite another process's write is seen a few times a second).
    const db = await newDb();
    const bob = await token(db, "add", "bob");
    const log: string[] = [];
    const server = await startServer({
      db,
      demoReplies: false,
      log: (line) => log.push(line),
      events: { keepAliveMs: 20 },
    });
    running.push(server);
    const stream = await openEvents(server.url, bob);
    expect(stream.status).toBe(200);
    await runUsers(db, ["remove", "bob"]);
    await until(() => stream.ended, "bob's stream ended");
    await until(
      () => log.some((l) => l.includes('ended 1 event stream of "bob": removed')),
      "the removal's log line",
    );
  });
});

describe("parley groups", () => {
  it("adds and removes members, refusing unknown people and changing nothing then", async () => {
    const db = await newDb();
    const [alice, carol] = await added(db, "alice", "carol");
    expect((await runGroups(db, ["add", "ops"], "alice")).say).toEqual([
      "group ops (id grp_ops): alice",
    ]);
    await expect(runGroups(db, ["add", "ops"], "carol,zed")).rejects.toThrow(
      /No user "zed" here.*nothing changed/,
    );
    expect((await runGroups(db, ["add", "ops"], "carol")).say).toEqual([
      "group ops (id grp_ops): alice, carol",
    ]);
    const server = await serve(db);
    const ops = await groupConversation(clientFor(server.url, alice), "grp_ops");
    expect(await status(server.url, carol, `/v1/conversations/${ops}`)).toBe(200);

    expect((await runGroups(db, ["remove", "ops"], "carol")).say).toEqual([
      "group ops (id grp_ops): alice",
    ]);
    expect(await status(server.url, carol, `/v1/conversations/${ops}`)).toBe(404);
    expect(await status(server.url, alice, `/v1/conversations/${ops}`)).toBe(200);
    await expect(runGroups(db, ["remove", "ops"], "carol")).rejects.toThrow(
      /"carol" not in group ops/,
    );
    await expect(runGroups(db, ["remove", "nope"], "carol")).rejects.toThrow(/no group "nope"/);
  });
});
