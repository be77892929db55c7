// Several `parley serve` instances on one PostgreSQL database serve the same users: what
// one instance writes, the others show at once (their page caches hear of it), and the
// rules that must hold under concurrency hold across instances.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, createApi } from "../../src/api/client.ts";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/index.ts";
import { runUsers } from "../../src/server/users-cli.ts";
import { pause, until } from "../wait.ts";
import {
  clientFor,
  contactConversation,
  groupConversation,
  messagePage,
  sendMessage,
} from "./helpers.ts";
import { freshDb, rawQuery, STORE } from "./stores.ts";

type Pair = { a: RunningServer; b: RunningServer; on(server: RunningServer, user: string): Api };

/** Two instances on one fresh database, started together. */
function useTwoInstances(options: StartOptions = {}): Pair {
  const context = {} as { a: RunningServer; b: RunningServer };
  beforeAll(async () => {
    const db = await freshDb();
    const start = () => startServer({ demo: true, demoReplies: false, ...options, db });
    [context.a, context.b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await Promise.all([context.a?.close(), context.b?.close()]);
  });
  return {
    get a() {
      return context.a;
    },
    get b() {
      return context.b;
    },
    on(server, user) {
      const token = server.demoUsers.find((u) => u.username === user)!.token;
      return createApi({ baseUrl: server.url, token, retries: 0 });
    },
  };
}

const newest = async (api: Api, conversationId: string) =>
  (await api.messages.list({ conversation_id: conversationId, limit: 20 })).data;

describe.skipIf(STORE !== "postgres")("two instances on one PostgreSQL", () => {
  const t = useTwoInstances();

  it("start together on an empty database: one schema, one set of users", async () => {
    const people = (server: RunningServer) => server.demoUsers.map((u) => u.contactId);
    expect(people(t.a)).toEqual(people(t.b));
    expect(t.a.demoUsers).toHaveLength(6);
    // The tokens each prints sign in on it (the same ones when both found the demo's
    // token file of this machine, else each its own: docs/team.md, "parley serve").
    for (const server of [t.a, t.b]) {
      const me = await t.on(server, "alice").conversations.list({ limit: 1 });
      expect(me.data.length).toBeGreaterThan(0);
    }
  });

  it("alice on one and bob on the other chat live", async () => {
    const alice = t.on(t.a, "alice");
    const bob = t.on(t.b, "bob");
    const id = (await alice.conversations.create({ contact_id: "ct_bob" })).id;
    expect((await bob.conversations.create({ contact_id: "ct_alice" })).id).toBe(id);
    // Each side has its newest page cached before the other writes.
    for (let round = 0; round < 5; round++) {
      await newest(alice, id);
      await newest(bob, id);
      const ping = await alice.messages.send({ conversation_id: id, message: `ping ${round}` });
      const seenByBob = await until(
        async () => (await newest(bob, id)).find((m) => m.id === ping.id),
        "the ping through the other instance",
      );
      expect(seenByBob.message).toBe(`ping ${round}`);
      const pong = await bob.messages.send({ conversation_id: id, message: `pong ${round}` });
      await until(
        async () => (await newest(alice, id)).find((m) => m.id === pong.id),
        "the pong through the other instance",
      );
    }
    // A reaction and an edit through one instance show through the other.
    const last = (await newest(bob, id))[0]!;
    await alice.messages.update(last.id, { reactions: { heart: ["alice"] } });
    await until(async () => {
      const [top] = await newest(bob, id);
      return top?.reactions.length === 1 ? top : undefined;
    }, "the reaction through the other instance");
  });

  it("a send without an Idempotency-Key (one statement) shows through the other's cache", async () => {
    const alice = clientFor(t.a.url, t.a.demoUsers.find((u) => u.username === "alice")!.token);
    const bob = t.on(t.b, "bob");
    const id = await contactConversation(alice, "ct_bob");
    await newest(bob, id);
    const sent = await sendMessage(alice, id, "hi");
    // Only the statement's own notice can tell b that its cached page is stale.
    await until(
      async () => (await newest(bob, id)).find((m) => m.id === sent.id),
      "the message on the other instance",
    );
  });

  it("32 concurrent sends with one Idempotency-Key over both instances make one message", async () => {
    const token = (server: RunningServer) => server.demoUsers[0]!.token;
    const [onA, onB] = [clientFor(t.a.url, token(t.a)), clientFor(t.b.url, token(t.b))];
    const id = await contactConversation(onA, "ct_dave");
    const replies = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        (i % 2 === 0 ? onA : onB).post(
          "/v1/messages",
          { conversation_id: id, message: "exactly once" },
          { headers: { "Idempotency-Key": "one-key-two-instances" } },
        ),
      ),
    );
    const ok = replies.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    for (const r of replies.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe("idempotency_conflict");
    }
    const stored = messagePage(await onB.get("/v1/messages", { conversation_id: id, limit: 100 }));
    expect(stored.data.filter((m) => m.message === "exactly once")).toHaveLength(1);
    // Once answered, the key replays the same message on either instance.
    const again = await onB.post(
      "/v1/messages",
      { conversation_id: id, message: "exactly once" },
      { headers: { "Idempotency-Key": "one-key-two-instances" } },
    );
    expect(again.body.id).toBe(ok[0]!.body.id);
  });

  it("creates one conversation per pair and per group under concurrency", async () => {
    const user = (server: RunningServer, name: string) =>
      clientFor(server.url, server.demoUsers.find((u) => u.username === name)!.token);
    const pairs = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 2 === 0
          ? contactConversation(user(i % 4 === 0 ? t.a : t.b, "erin"), "ct_frank")
          : contactConversation(user(i % 4 === 1 ? t.a : t.b, "frank"), "ct_erin"),
      ),
    );
    expect(new Set(pairs).size).toBe(1);
    // carol and erin are both in grp_design, and nobody has opened it in this database yet.
    const groups = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        groupConversation(
          user(i % 2 === 0 ? t.a : t.b, i % 3 === 0 ? "carol" : "erin"),
          "grp_design",
        ),
      ),
    );
    expect(new Set(groups).size).toBe(1);
  });

  it("keeps every concurrent reaction name, each once, in one order for everyone", async () => {
    const alice = t.on(t.a, "alice");
    const id = (await alice.conversations.create({ group_id: "grp_oncall" })).id;
    const target = await alice.messages.send({ conversation_id: id, message: "react to me" });
    const names = Array.from({ length: 12 }, (_, i) => `r${i}`);
    await Promise.all(
      names.map((name, i) =>
        t.on(i % 2 === 0 ? t.a : t.b, "bob").messages.update(target.id, {
          reactions: { [name]: ["bob"] },
        }),
      ),
    );
    const [fromA, fromB] = await Promise.all([
      t.on(t.a, "dave").messages.get(target.id),
      t.on(t.b, "dave").messages.get(target.id),
    ]);
    const seen = fromA.reactions.flatMap((r) => Object.keys(r));
    expect([...seen].sort()).toEqual([...names].sort());
    expect(fromB.reactions).toEqual(fromA.reactions);
  });
});

describe.skipIf(STORE !== "postgres")("demo replies with two instances", () => {
  const t = useTwoInstances({ demoReplies: true, demoReplyDelayMs: [30, 80] });

  it("come from one instance only, never twice", async () => {
    const alice = t.on(t.a, "alice");
    const viaB = t.on(t.b, "alice");
    const id = (await alice.conversations.create({ contact_id: "ct_carol" })).id;
    let written = 0;
    for (let attempt = 0; attempt < 6; attempt++) {
      const sender = attempt % 2 === 0 ? alice : viaB;
      const sent = await sender.messages.send({ conversation_id: id, message: `hi ${attempt}` });
      const answered = await until(async () => {
        const message = await alice.messages.get(sent.id);
        const replies = (await newest(alice, id)).filter((m) => m.id > sent.id);
        return message.reactions.length + replies.length > 0 ? { message } : undefined;
      }, "a demo answer");
      await pause(300); // a second answer would come within this
      const replies = (await newest(alice, id)).filter((m) => m.id > sent.id);
      expect(replies.length).toBeLessThanOrEqual(1);
      written += replies.length;
      const reacted = (await alice.messages.get(sent.id)).reactions.flatMap(
        (r) => Object.values(r)[0] ?? [],
      );
      expect(reacted.length).toBeLessThanOrEqual(1);
      expect(answered).toBeDefined();
    }
    expect(written).toBeGreaterThan(0);
  });

  it("not as someone signed in through the other instance", async () => {
    const bobOnB = t.on(t.b, "bob");
    await bobOnB.conversations.list();
    const alice = t.on(t.a, "alice");
    const id = (await alice.conversations.create({ contact_id: "ct_bob" })).id;
    const sent = await alice.messages.send({ conversation_id: id, message: "hello bob" });
    await pause(400); // an answer that must not come
    expect((await newest(alice, id)).filter((m) => m.id > sent.id)).toEqual([]);
    expect((await alice.messages.get(sent.id)).reactions).toEqual([]);
  });

  it("go on from the other instance when one stops", async () => {
    await t.a.close();
    const alice = t.on(t.b, "alice");
    const id = (await alice.conversations.create({ contact_id: "ct_dave" })).id;
    // Whichever held the lock before, the one left answers within a few seconds.
    const deadline = Date.now() + 8000;
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      const sent = await alice.messages.send({ conversation_id: id, message: `anyone ${attempt}` });
      await pause(1000);
      const replies = (await newest(alice, id)).filter((m) => m.id > sent.id);
      const reactions = (await alice.messages.get(sent.id)).reactions;
      if (replies.length + reactions.length > 0) return;
    }
    throw new Error("no demo reply after the other instance stopped");
  });
});

describe.skipIf(STORE !== "postgres")("an advisory lock whose connection breaks", () => {
  it("the demo leader's: the instance lives on and leads again", async () => {
    const db = await freshDb();
    const server = await startServer({ demo: true, db });
    try {
      const leaders = `SELECT pid::text FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = ${0x70726c79} AND objid = 3
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      const lead = () => rawQuery<{ pid: string }>(db, leaders).then(([row]) => row);
      const before = await until(lead, "the leader", { timeoutMs: 20_000 });
      await rawQuery(db, "SELECT pg_terminate_backend($1::integer)", [before.pid]);
      const after = await until(
        async () => ((await lead())?.pid ?? before.pid) !== before.pid || undefined,
        "a new leader",
        { timeoutMs: 20_000 },
      );
      expect(after).toBe(true);
      const alice = clientFor(server.url, server.demoUsers[0]!.token);
      expect((await alice.get("/v1/conversations")).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("an instance's Idempotency-Key lock: taken again, and sends with keys go on", async () => {
    const db = await freshDb();
    const server = await startServer({ demo: true, demoReplies: false, db, ownerCheckMs: 200 });
    try {
      const token = server.demoUsers.find((u) => u.username === "alice")!.token;
      const alice = clientFor(server.url, token);
      const id = await contactConversation(alice, "ct_bob");
      const owners = `SELECT pid::text, objid::text FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = ${0x70726c7a}
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      const [before] = await rawQuery<{ pid: string; objid: string }>(db, owners);
      expect(before).toBeDefined();
      await rawQuery(db, "SELECT pg_terminate_backend($1::integer)", [before!.pid]);
      const after = await until(
        async () => {
          const [row] = await rawQuery<{ pid: string; objid: string }>(db, owners);
          return row && row.objid !== before!.objid ? row : undefined;
        },
        "a new owner lock",
        { timeoutMs: 20_000 },
      );
      expect(after.pid).not.toBe(before!.pid);
      const headers = { "Idempotency-Key": "after-the-break" };
      const send = () =>
        alice.post("/v1/messages", { conversation_id: id, message: "still once" }, { headers });
      const first = await send();
      expect(first.status).toBe(200);
      expect((await send()).body).toEqual(first.body);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(STORE !== "postgres")(
  "demo replies, an instance without --demo beside one with it",
  () => {
    const context = {} as { demo: RunningServer; plain: RunningServer; db: string };
    beforeAll(async () => {
      const db = await freshDb();
      context.db = db;
      context.demo = await startServer({ db, demo: true, demoReplyDelayMs: [30, 80] });
      context.plain = await startServer({ db });
    });
    afterAll(async () => {
      await Promise.all([context.demo?.close(), context.plain?.close()]);
    });

    it("follow a message sent through the instance without --demo", async () => {
      // The demo's printed tokens are the demo instance's own: alice has one of hers.
      const token = (await runUsers(context.db, ["token", "alice"], { tokenName: "laptop" }))
        .out[0]!;
      const alice = createApi({ baseUrl: context.plain.url, token, retries: 0 });
      const id = (await alice.conversations.create({ contact_id: "ct_erin" })).id;
      const sent = await alice.messages.send({ conversation_id: id, message: "hello erin" });
      await until(async () => {
        const replies = (await newest(alice, id)).filter((m) => m.id > sent.id);
        const reactions = (await alice.messages.get(sent.id)).reactions;
        return replies.length + reactions.length > 0 ? true : undefined;
      }, "a demo reply");
    });
  },
);
