// Deleting leaves nothing behind in the database: no reactions, attachments or
// memberships of what is gone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { clientFor, contactConversation, deleted, sendMessage } from "./helpers.ts";
import { freshDb, rawQuery } from "./stores.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-cascade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("removes a deleted conversation's messages, reactions, attachments and memberships", async () => {
  const db = await freshDb(join(dir, "cascade.db"));
  const server = await startServer({ db, demo: true, demoReplies: false });
  const [alice, bob] = ["alice", "bob"].map((name) =>
    clientFor(server.url, server.demoUsers.find((u) => u.username === name)!.token),
  ) as [ReturnType<typeof clientFor>, ReturnType<typeof clientFor>];
  const id = await contactConversation(alice, "ct_bob");
  const single = await sendMessage(alice, id, "one", {
    attachments: [{ file_url: "https://x.example.com/1.pdf" }],
  });
  await bob.put(`/v1/messages/${single.id}`, { reactions: { heart: ["bob"] } });
  deleted(await alice.del(`/v1/messages/${single.id}`), single.id);
  deleted(await bob.del(`/v1/conversations/${id}`), id);
  await server.close();

  const count = async (sql: string, ...params: string[]) =>
    Number((await rawQuery<{ n: number }>(db, sql, params))[0]!.n);
  expect(await count("SELECT count(*) AS n FROM messages WHERE conversation_id = $1", id)).toBe(0);
  expect(await count("SELECT count(*) AS n FROM memberships WHERE conversation_id = $1", id)).toBe(
    0,
  );
  const orphans = (table: string) =>
    count(`SELECT count(*) AS n FROM ${table} WHERE message_id NOT IN (SELECT id FROM messages)`);
  expect(await orphans("reactions")).toBe(0);
  expect(await orphans("attachments")).toBe(0);
  expect(await count("SELECT count(*) AS n FROM reactions")).toBeGreaterThan(0);
});
