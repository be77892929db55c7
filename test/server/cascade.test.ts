// Deleting leaves nothing behind in the database: no reactions, attachments or
// memberships of what is gone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { clientFor, contactConversation, deleted, message } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-cascade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("removes a deleted conversation's messages, reactions, attachments and memberships", async () => {
  const db = join(dir, "cascade.db");
  const server = await startServer({ db, demo: true, demoReplies: false });
  const [alice, bob] = ["alice", "bob"].map((name) =>
    clientFor(server.url, server.demoUsers.find((u) => u.username === name)!.token),
  ) as [ReturnType<typeof clientFor>, ReturnType<typeof clientFor>];
  const id = await contactConversation(alice, "ct_bob");
  const single = message(
    await alice.post("/v1/messages", {
      conversation_id: id,
      message: "one",
      attachments: [{ file_url: "https://x.example.com/1.pdf" }],
    }),
  );
  await bob.put(`/v1/messages/${single.id}`, { reactions: { heart: ["bob"] } });
  deleted(await alice.del(`/v1/messages/${single.id}`), single.id);
  deleted(await bob.del(`/v1/conversations/${id}`), id);
  await server.close();

  const raw = new DatabaseSync(db, { readOnly: true });
  const count = (sql: string, ...params: string[]) =>
    (raw.prepare(sql).get(...params) as { n: number }).n;
  expect(count("SELECT count(*) AS n FROM messages WHERE conversation_id = ?", id)).toBe(0);
  expect(count("SELECT count(*) AS n FROM memberships WHERE conversation_id = ?", id)).toBe(0);
  const orphans = (table: string) =>
    count(`SELECT count(*) AS n FROM ${table} WHERE message_id NOT IN (SELECT id FROM messages)`);
  expect(orphans("reactions")).toBe(0);
  expect(orphans("attachments")).toBe(0);
  expect(count("SELECT count(*) AS n FROM reactions")).toBeGreaterThan(0);
  raw.close();
});
