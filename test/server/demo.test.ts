// The demo data and the demo users' replies.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { hashToken, newToken } from "../../src/server/tokens.ts";
import { pause, until } from "../wait.ts";
import {
  clientFor,
  contactConversation,
  conversation,
  conversationPage,
  groupConversation,
  message,
  messagePage,
  messagePages,
  sendMessage,
  useServer,
} from "./helpers.ts";
import { freshDb, rawQuery, STORE } from "./stores.ts";

describe("demo data", () => {
  const t = useServer();

  it("has the six users, alice first, with readable contact ids", () => {
    expect(t.server.demoUsers.map((u) => u.username)).toEqual([
      "alice",
      "bob",
      "carol",
      "dave",
      "erin",
      "frank",
    ]);
    expect(t.server.demoUsers[0]).toMatchObject({ username: "alice", contactId: "ct_alice" });
    expect(new Set(t.server.demoUsers.map((u) => u.token)).size).toBe(6);
  });

  it("gives alice more than a page of conversations, some pinned, muted and archived", async () => {
    const list = conversationPage(
      await t.as("alice").get("/v1/conversations", { limit: 100 }),
    ).data;
    expect(list.length).toBeGreaterThanOrEqual(12);
    expect(list.some((c) => c.is_pinned)).toBe(true);
    expect(list.some((c) => c.is_muted)).toBe(true);
    expect(list.some((c) => c.archived_at !== null)).toBe(true);
    expect(list.some((c) => c.pinned_message_id !== null)).toBe(true);
    expect(list.filter((c) => c.group_id !== null).map((c) => c.group_id)).toContain("grp_design");
    expect(list.filter((c) => c.contact_id !== null).length).toBe(5);
    const now = Math.floor(Date.now() / 1000);
    expect(list.every((c) => c.last_active_at !== null && c.last_active_at <= now)).toBe(true);
  });

  it("has a busy team channel with reactions and pdf and png attachments", async () => {
    const alice = t.as("alice");
    const team = await groupConversation(alice, "grp_team");
    const all = (await messagePages(alice, team)).flat();
    expect(all.length).toBeGreaterThanOrEqual(500);
    expect(new Set(all.map((m) => m.contact.username)).size).toBe(6);
    const days = (all[0]!.created_at - all.at(-1)!.created_at) / 86_400;
    expect(days).toBeGreaterThan(3);
    expect(all.filter((m) => m.reactions.length > 0).length).toBeGreaterThan(20);
    const recent = messagePage(await alice.get("/v1/messages", { limit: 100 })).data;
    expect(recent.some((m) => m.read_at === null && m.contact.username !== "alice")).toBe(true);

    const files = [];
    for (const c of conversationPage(await alice.get("/v1/conversations", { limit: 100 })).data) {
      const page = messagePage(
        await alice.get("/v1/messages", { conversation_id: c.id, limit: 100 }),
      );
      files.push(...page.data.flatMap((m) => m.attachments));
    }
    expect(files.some((f) => f.file_type === "application/pdf" && (f.file_size ?? 0) > 0)).toBe(
      true,
    );
    expect(files.some((f) => f.file_type === "image/png" && f.filename?.endsWith(".png"))).toBe(
      true,
    );
  });

  it("hides the conversations alice is not part of", async () => {
    const bob = t.as("bob");
    const backend = conversationPage(
      await bob.get("/v1/conversations", { group_id: "grp_backend" }),
    ).data;
    expect(backend).toHaveLength(1);
    expect((await t.as("alice").get(`/v1/conversations/${backend[0]!.id}`)).status).toBe(404);
  });
});

describe("demo database on disk", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-demo-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // How quickly it seeds is for `npm run bench` (test/bench/server.ts), never a test.
  it("seeds once, and brings the same tokens back, kept beside the database, not in it", async () => {
    const path = join(dir, "nested", "folder", "demo.db");
    const db = await freshDb(path);
    const first = await startServer({ db, demo: true, demoReplies: false, demoTokensDir: dir });
    const alice = clientFor(first.url, first.demoUsers[0]!.token);
    const before = conversationPage(await alice.get("/v1/conversations", { limit: 100 })).data;
    await alice.put(`/v1/conversations/${before[0]!.id}`, { is_muted: true });
    await first.close();

    const second = await startServer({ db, demo: true, demoReplies: false, demoTokensDir: dir });
    expect(second.demoUsers).toEqual(first.demoUsers);
    const again = clientFor(second.url, second.demoUsers[0]!.token);
    const after = conversationPage(await again.get("/v1/conversations", { limit: 100 })).data;
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(after[0]!.is_muted).toBe(true);
    await second.close();
    if (STORE === "sqlite") {
      // The database has their hashes, as it has every token's; the tokens are in a file
      // of parley's beside it, private.
      const hashes = await rawQuery<{ hash: string }>(db, "SELECT hash FROM tokens ORDER BY hash");
      expect(hashes.map((h) => h.hash)).toEqual(
        first.demoUsers.map((u) => hashToken(u.token)).sort(),
      );
      const marks = await rawQuery<{ token: string }>(db, "SELECT token FROM demo_tokens");
      expect(marks.map((m) => m.token)).toEqual(["", "", "", "", "", ""]);
      expect(statSync(`${path}-demo-tokens`).mode & 0o777).toBe(0o600);
      expect(readFileSync(`${path}-demo-tokens`, "utf8")).toContain(first.demoUsers[0]!.token);
    }
  });

  it("gives a demo user a token of its process when the kept one is not theirs", async () => {
    const path = join(dir, "elsewhere.db");
    const db = await freshDb(path);
    const first = await startServer({ db, demo: true, demoReplies: false });
    await first.close();
    if (STORE !== "sqlite") return;
    // Another machine's file, say: its tokens sign nobody in here.
    writeFileSync(`${path}-demo-tokens`, JSON.stringify({ alice: newToken() }));
    const second = await startServer({ db, demo: true, demoReplies: false });
    try {
      const alice = second.demoUsers[0]!;
      expect(alice.token).not.toBe(first.demoUsers[0]!.token);
      expect((await clientFor(second.url, alice.token).get("/v1/contacts")).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it("without demo, a fresh database is empty: nobody, no conversations", async () => {
    const db = await freshDb(join(dir, "plain.db"));
    const server = await startServer({ db });
    try {
      expect(server.demoUsers).toEqual([]);
      expect(await server.people()).toEqual([]);
      expect(await rawQuery(db, "SELECT id FROM users")).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("demo users without conversations: they chat from nothing", async () => {
    const server = await startServer({
      db: await freshDb(join(dir, "users-only.db")),
      demo: true,
      demoConversations: false,
      demoReplies: false,
    });
    try {
      expect(server.demoUsers.map((u) => u.username)[0]).toBe("alice");
      const alice = clientFor(server.url, server.demoUsers[0]!.token);
      expect(conversationPage(await alice.get("/v1/conversations")).data).toEqual([]);
      const id = await contactConversation(alice, "ct_bob");
      expect((await sendMessage(alice, id, "hi")).message).toBe("hi");
    } finally {
      await server.close();
    }
  });
});

describe("demo replies", () => {
  const t = useServer({ demoReplies: true, demoReplyDelayMs: [50, 150] });

  /** Waits for the other side to answer or react to `sent`. */
  async function answer(conversationId: string, sentId: string) {
    const alice = t.as("alice");
    return until(async () => {
      const page = messagePage(
        await alice.get("/v1/messages", { conversation_id: conversationId, limit: 5 }),
      );
      const reply = page.data.find((m) => m.contact.username !== "alice" && m.id > sentId);
      const reacted = message(await alice.get(`/v1/messages/${sentId}`)).reactions;
      return reply || reacted.length > 0 ? { reply, reacted } : undefined;
    }, "a reply or a reaction");
  }

  it("lets the contact answer or react a moment later, and never answers an answer", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_bob");
    const sent = await sendMessage(alice, id, "are we shipping friday?");
    const { reply, reacted } = await answer(id, sent.id);
    if (reply) {
      expect(reply.contact.username).toBe("bob");
      expect(reply.message.length).toBeGreaterThan(0);
    }
    for (const r of reacted) expect(Object.values(r)[0]).toEqual(["bob"]);
    await pause(400); // a second answer would come within this
    const later = messagePage(
      await alice.get("/v1/messages", { conversation_id: id, limit: 10 }),
    ).data;
    expect(later.filter((m) => m.id > sent.id).length).toBeLessThanOrEqual(1);
    expect(conversation(await alice.get(`/v1/conversations/${id}`)).last_active_at).toBe(
      later[0]!.created_at,
    );
  });

  it("answers in a group from another member", async () => {
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_design");
    const members = ["bob", "carol", "erin"];
    for (let attempt = 0; attempt < 10; attempt++) {
      const sent = await sendMessage(alice, id, `thanks! ${attempt}`);
      const { reply, reacted } = await answer(id, sent.id);
      for (const r of reacted) expect(members).toContain(Object.values(r)[0]![0]);
      if (reply) {
        expect(members).toContain(reply.contact.username);
        return;
      }
    }
    throw new Error("no written reply in ten tries");
  });

  it("clears pending replies on close", async () => {
    const logged: string[] = [];
    const server = await startServer({
      db: await freshDb(),
      demo: true,
      demoReplyDelayMs: [200, 200],
      log: (line) => logged.push(line),
    });
    const alice = clientFor(server.url, server.demoUsers[0]!.token);
    const id = await contactConversation(alice, "ct_carol");
    await sendMessage(alice, id, "hello?");
    await server.close();
    await pause(300);
    // A timer left behind would have tried the closed database and logged its failure.
    expect(logged.filter((line) => line.includes("demo reply"))).toEqual([]);
  });
});

describe("demo replies while someone is signed in", () => {
  // The server's clock, in Unix seconds, moved by the tests: no real minute to wait.
  let clock = Math.floor(Date.now() / 1000);
  const t = useServer({ demoReplies: true, demoReplyDelayMs: [20, 60], now: () => clock });
  const settle = () => pause(300); // for answers that must not come

  /** What others did after `sentId`, as `reader` sees it: messages and reactions. */
  async function responses(reader: string, conversationId: string, sentId: string) {
    const client = t.as(reader);
    const page = messagePage(
      await client.get("/v1/messages", { conversation_id: conversationId, limit: 10 }),
    );
    const replies = page.data.filter((m) => m.id > sentId).map((m) => m.contact.username);
    const reactions = message(await client.get(`/v1/messages/${sentId}`)).reactions.flatMap(
      (r) => Object.values(r)[0] ?? [],
    );
    return { replies, reactions };
  }

  async function answered(reader: string, conversationId: string, sentId: string) {
    return until(async () => {
      const r = await responses(reader, conversationId, sentId);
      return r.replies.length + r.reactions.length > 0 ? r : undefined;
    }, "a reply or a reaction");
  }

  it("does not answer as a user who made a request in the last minute", async () => {
    const alice = t.as("alice");
    await t.as("bob").get("/v1/conversations");
    const id = await contactConversation(alice, "ct_bob");
    const sent = await sendMessage(alice, id, "hi");
    await settle();
    expect(await responses("alice", id, sent.id)).toEqual({ replies: [], reactions: [] });

    // Nor as alice, who is signed in, when bob writes to her.
    const fromBob = await sendMessage(t.as("bob"), id, "hey alice");
    await settle();
    expect(await responses("bob", id, fromBob.id)).toEqual({ replies: [], reactions: [] });
  });

  it("answers again a minute after the user's last request, however often it answers", async () => {
    clock += 61;
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_bob");
    for (const text of ["hi bob", "thanks!"]) {
      const sent = await sendMessage(alice, id, text);
      const { replies, reactions } = await answered("alice", id, sent.id);
      // The demo's own writes as bob do not make bob signed in.
      for (const who of [...replies, ...reactions]) expect(who).toBe("bob");
    }
  });

  it("in a group, answers only from members nobody is signed in as", async () => {
    clock += 61;
    await t.as("bob").get("/v1/conversations");
    await t.as("carol").get("/v1/conversations");
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_design");
    for (let attempt = 0; attempt < 4; attempt++) {
      const sent = await sendMessage(alice, id, `lunch? ${attempt}`);
      const { replies, reactions } = await answered("alice", id, sent.id);
      for (const who of [...replies, ...reactions]) expect(who).toBe("erin");
    }
  });
});
