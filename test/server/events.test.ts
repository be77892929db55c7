// /v1/events (contract.md "Events") and conditional GETs, on both stores: who gets which
// event, in what order, resuming, reset, keep-alive, slow clients and dead tokens.
import { createHash } from "node:crypto";
import { connect } from "node:net";
import type { EventSourceMessage } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/index.ts";
import { runUsers } from "../../src/server/users-cli.ts";
import {
  type Client,
  clientFor,
  conversation,
  failure,
  groupConversation,
  message,
  sendMessage,
  useServer,
} from "./helpers.ts";
import { dataOf, openEvents, type Sse } from "./sse.ts";
import { freshDb, STORE } from "./stores.ts";

const FAST = { keepAliveMs: 100 };

/** Ids only grow. */
function expectOrdered(events: EventSourceMessage[]): void {
  const ids = events.map((event) => Number(event.id));
  expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
}

const is =
  (type: string, id?: string) =>
  (event: EventSourceMessage): boolean =>
    event.event === type && (id === undefined || dataOf(event).id === id);

describe("the event stream", () => {
  const t = useServer({ events: FAST });
  const streams: Sse[] = [];
  const open = async (username: string, headers?: Record<string, string>) => {
    const sse = await openEvents(t.server.url, t.as(username).token, headers);
    streams.push(sse);
    return sse;
  };
  afterAll(() => {
    for (const sse of streams) sse.close();
  });

  it("is asked for with Accept: text/event-stream; anything else is 406", async () => {
    failure(await t.as("alice").get("/v1/events"), 406, "unsupported_media_type");
    const sse = await open("alice");
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
    failure(await t.as("alice").post("/v1/events"), 405, "method_not_allowed");
    const head = await t.as("alice").send("HEAD", "/v1/events", {
      headers: { accept: "text/event-stream" },
    });
    expect(head.status).toBe(200);
    expect(t.server.eventStreams()).toBe(1);
    const anonymous = await fetch(`${t.server.url}/v1/events`, {
      headers: { accept: "text/event-stream" },
    });
    expect(anonymous.status).toBe(401);
  });

  it("sends a comment to keep the connection alive", async () => {
    const sse = await open("alice");
    await vi.waitFor(() => expect(sse.comments).toContain("keep-alive"));
  });

  it("tells each member every change, in order, as the REST API shows it to them", async () => {
    const [carol, dave, bob] = await Promise.all([open("carol"), open("dave"), open("bob")]);
    const asCarol = t.as("carol");
    const asDave = t.as("dave");

    const created = conversation(
      await asCarol.post("/v1/conversations", { contact_id: "ct_dave" }),
    );
    const id = created.id;
    const forCarol = dataOf(await carol.next(is("conversation.created", id)));
    expect(forCarol).toEqual(created);
    const forDave = dataOf(await dave.next(is("conversation.created", id)));
    expect(forDave.contact_id).toBe("ct_carol");

    const sent = await sendMessage(asCarol, id, "hi");
    for (const sse of [carol, dave]) {
      expect(dataOf(await sse.next(is("message.created", sent.id)))).toEqual(sent);
    }

    const mark = dave.events.length;
    const edited = message(await asCarol.put(`/v1/messages/${sent.id}`, { message: "hi dave" }));
    expect(dataOf(await dave.next(is("message.updated", sent.id), mark))).toEqual(edited);
    const reacted = message(
      await asDave.put(`/v1/messages/${sent.id}`, { reactions: { wave: ["dave"] } }),
    );
    expect(dataOf(await carol.next(is("message.updated", sent.id), mark))).toBeDefined();
    await vi.waitFor(() =>
      expect(carol.events.filter(is("message.updated", sent.id)).map(dataOf)).toContainEqual(
        reacted,
      ),
    );
    const withFile = message(
      await asCarol.put(`/v1/messages/${sent.id}`, {
        attachments: [{ file_url: "https://files.example.com/a.png" }],
      }),
    );
    await vi.waitFor(() =>
      expect(dave.events.filter(is("message.updated", sent.id)).map(dataOf)).toContainEqual(
        withFile,
      ),
    );

    // Dave opens it: his own conversation.updated, and one messages.read for every member.
    const beforeOpen = carol.events.length;
    const daveBeforeOpen = dave.events.length;
    const opened = conversation(await asDave.get(`/v1/conversations/${id}`));
    const davesView = dataOf(await dave.next(is("conversation.updated", id), daveBeforeOpen));
    expect(davesView.last_opened_at).toBe(opened.last_opened_at);
    for (const sse of [carol, dave]) {
      const read = await sse.next((e) => e.event === "messages.read", beforeOpen);
      expect(dataOf(read)).toEqual({
        conversation_id: id,
        reader: "dave",
        read_at: opened.last_opened_at,
      });
    }
    expect(carol.events.slice(beforeOpen).filter(is("message.updated"))).toEqual([]);
    // Opened again with nothing new to read: no messages.read.
    const afterRead = carol.events.length;
    // Counted before the request: its event may come before its answer.
    const daveBefore = dave.events.length;
    await asDave.get(`/v1/conversations/${id}`);
    await dave.next(is("conversation.updated", id), daveBefore);

    // Muting is dave's own: carol hears nothing of it. Pinning is everyone's.
    conversation(await asDave.put(`/v1/conversations/${id}`, { is_muted: true }));
    await dave.next((e) => is("conversation.updated", id)(e) && dataOf(e).is_muted === true);
    conversation(await asCarol.put(`/v1/conversations/${id}`, { pinned_message_id: sent.id }));
    for (const sse of [carol, dave]) {
      const pinned = await sse.next(
        (e) => is("conversation.updated", id)(e) && dataOf(e).pinned_message_id === sent.id,
      );
      expect(dataOf(pinned).is_muted).toBe(sse === dave);
    }
    // In order: by the pin, the second opening would have come.
    expect(carol.events.slice(afterRead).filter((e) => e.event === "messages.read")).toEqual([]);
    expect(carol.events.filter(is("conversation.updated", id)).map(dataOf)).not.toContainEqual(
      expect.objectContaining({ is_muted: true }),
    );

    await asCarol.del(`/v1/messages/${sent.id}`);
    for (const sse of [carol, dave]) {
      const gone = await sse.next(is("message.deleted", sent.id));
      expect(dataOf(gone)).toEqual({ id: sent.id, conversation_id: id });
      const after = await sse.next(
        (e) => is("conversation.updated", id)(e) && dataOf(e).pinned_message_id === null,
        sse.events.indexOf(gone),
      );
      expect(Number(after.id)).toBeGreaterThan(Number(gone.id));
    }
    await asDave.del(`/v1/conversations/${id}`);
    for (const sse of [carol, dave]) {
      expect(dataOf(await sse.next(is("conversation.deleted", id)))).toEqual({
        id,
        conversation_id: id,
      });
      expectOrdered(sse.events);
    }

    // Bob is no member: after a message of his own arrives, he has seen nothing else.
    const own = await asBobSends(t.as("bob"));
    await bob.next(is("message.created", own));
    expect(bob.events.filter((e) => dataOf(e).conversation_id === id)).toEqual([]);
    expect(bob.events.filter((e) => e.event === "conversation.created")).toEqual([]);
  });

  it("tells a group's members of its messages, and nobody else", async () => {
    // grp_backend: bob, dave and frank.
    const [alice, carol, dave, frank] = await Promise.all([
      open("alice"),
      open("carol"),
      open("dave"),
      open("frank"),
    ]);
    const id = await groupConversation(t.as("bob"), "grp_backend");
    const sent = await sendMessage(t.as("bob"), id, "deploy at 5");
    for (const sse of [dave, frank]) await sse.next(is("message.created", sent.id));
    // Alice and carol hear of their own conversation's message, and of nothing before it.
    const aliceCarol = await t.as("alice").post("/v1/conversations", { contact_id: "ct_carol" });
    const mine = message(
      await t
        .as("alice")
        .post("/v1/messages", { conversation_id: aliceCarol.body.id, message: "x" }),
    );
    for (const sse of [alice, carol]) {
      await sse.next(is("message.created", mine.id));
      expect(sse.events.filter((e) => dataOf(e).conversation_id === id)).toEqual([]);
    }
  });

  it("replays what came after Last-Event-ID, then goes on live", async () => {
    const asErin = t.as("erin");
    const id = conversation(await asErin.post("/v1/conversations", { contact_id: "ct_frank" })).id;
    const first = await open("erin");
    const one = await sendMessage(asErin, id, "1");
    const seen = await first.next(is("message.created", one.id));
    first.close();
    const two = await sendMessage(asErin, id, "2");
    const three = await sendMessage(asErin, id, "3");
    const again = await open("erin", { "last-event-id": seen.id! });
    await again.next(is("message.created", three.id));
    const four = await sendMessage(asErin, id, "4");
    await again.next(is("message.created", four.id));
    expect(again.events.map((e) => dataOf(e).id)).toEqual([two.id, three.id, four.id]);
    expectOrdered(again.events);
  });

  it("answers a cursor it does not know with reset first", async () => {
    for (const cursor of ["999999999999", "not-a-cursor"]) {
      const sse = await open("alice", { "last-event-id": cursor });
      const reset = await sse.next((e) => e.event === "reset");
      expect(sse.events[0]).toBe(reset);
      expect(Number(reset.id)).toBeGreaterThanOrEqual(0);
    }
  });

  it("ends a user's oldest stream beyond 16", async () => {
    const many: Sse[] = [];
    for (let i = 0; i < 17; i++) many.push(await open("frank"));
    await vi.waitFor(() => expect(many[0]!.ended).toBe(true));
    expect(many.slice(1).every((sse) => !sse.ended)).toBe(true);
    for (const sse of many) sse.close();
  });

  it("answers a GET again with 304 and no body while its ETag is current", async () => {
    const alice = t.as("alice");
    const id = conversation(await alice.post("/v1/conversations", { contact_id: "ct_bob" })).id;
    for (const path of ["/v1/conversations", `/v1/messages?conversation_id=${id}`]) {
      const first = await fetch(t.server.url + path, {
        headers: { authorization: `Bearer ${alice.token}` },
      });
      const tag = first.headers.get("etag");
      // The SHA-1 of the body as sent, whether the route sent text or cached bytes.
      const body = Buffer.from(await first.arrayBuffer());
      expect(tag).toBe(`W/"${createHash("sha1").update(body).digest("hex")}"`);
      const again = await alice.send("GET", path, { headers: { "if-none-match": tag! } });
      expect(again.status).toBe(304);
      expect(again.body).toBe("");
      expect(again.headers.get("etag")).toBe(tag);
    }
    const before = await alice.get(`/v1/messages?conversation_id=${id}`);
    await alice.post("/v1/messages", { conversation_id: id, message: "news" });
    const after = await alice.send("GET", `/v1/messages?conversation_id=${id}`, {
      headers: { "if-none-match": before.headers.get("etag")! },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    // Only what a GET answers is tagged.
    const posted = await alice.post("/v1/messages", { conversation_id: id, message: "more" });
    expect(posted.headers.get("etag")).toBeNull();
  });
});

async function asBobSends(bob: Client): Promise<string> {
  const id = conversation(await bob.post("/v1/conversations", { contact_id: "ct_alice" })).id;
  return (await sendMessage(bob, id, "ping")).id;
}

describe("retention", () => {
  // Kept: one second, or the newest two events; pruned every 50 ms.
  const t = useServer({ events: { retention: { seconds: 1, count: 2, pruneEveryMs: 50 } } });

  it("answers a cursor older than what it still holds with reset", async () => {
    const asBob = t.as("bob");
    const id = conversation(await asBob.post("/v1/conversations", { contact_id: "ct_erin" })).id;
    const first = await openEvents(t.server.url, asBob.token);
    const old = await sendMessage(asBob, id, "old");
    const cursor = (await first.next(is("message.created", old.id))).id!;
    const sse = await vi.waitFor(
      async () => {
        await asBob.post("/v1/messages", { conversation_id: id, message: "newer" });
        const attempt = await openEvents(t.server.url, asBob.token, { "last-event-id": cursor });
        const head = await attempt.next(() => true);
        attempt.close();
        if (head.event !== "reset") throw new Error("the cursor is still held");
        return attempt;
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(sse.events[0]!.event).toBe("reset");
    expect(Number(sse.events[0]!.id)).toBeGreaterThan(Number(cursor));
    first.close();
  });
});

describe("the cost of a stream", () => {
  const t = useServer({ events: { maxQueuedBytes: 16 * 1024, stallMs: 300 }, rateLimit: false });

  it("drops a client that stopped reading instead of buffering for it", async () => {
    const alice = t.as("alice");
    const id = conversation(await alice.post("/v1/conversations", { contact_id: "ct_bob" })).id;
    const base = t.server.eventStreams();
    const url = new URL(t.server.url);
    const socket = connect(Number(url.port), url.hostname);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("error", () => {});
    socket.write(
      `GET /v1/events HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${t.as("bob").token}\r\nAccept: text/event-stream\r\n\r\n`,
    );
    await vi.waitFor(() => expect(t.server.eventStreams()).toBe(base + 1));
    socket.pause();
    const text = "x".repeat(9000);
    let sent = 0;
    while (t.server.eventStreams() > base) {
      await alice.post("/v1/messages", { conversation_id: id, message: text });
      sent++;
      expect(sent).toBeLessThan(5000);
    }
    socket.resume();
    await closed;
  });
});

describe("tokens", () => {
  let server: RunningServer;
  let db: string;
  beforeAll(async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    db = await freshDb(join(mkdtempSync(join(tmpdir(), "parley-events-")), "db.sqlite"));
    server = await startServer({ db, demo: true, demoReplies: false, events: FAST });
  });
  afterAll(() => server?.close());

  it("a token that stops being valid ends its streams", async () => {
    // A token of the database's (the demo's live in the server's memory only).
    const erin = (await runUsers(db, ["token", "erin"], { tokenName: "laptop" })).out[0]!;
    const sse = await openEvents(server.url, erin);
    expect(sse.status).toBe(200);
    await writeQuery(db, "DELETE FROM tokens WHERE user_id = $1", ["ct_erin"]);
    // Each keep-alive checks the tokens again (revalidateTokens() does it at once).
    await vi.waitFor(() => expect(sse.ended).toBe(true));
    expect(server.eventStreams()).toBe(0);
  });
});

describe("demo replies", () => {
  const t = useServer({ demoReplies: true, demoReplyDelayMs: [10, 20] });

  it("are events like any other", async () => {
    const alice = t.as("alice");
    const sse = await openEvents(t.server.url, alice.token);
    const id = conversation(await alice.post("/v1/conversations", { contact_id: "ct_dave" })).id;
    const mine = await sendMessage(alice, id, "hey");
    await sse.next((e) => e.event === "message.created" && dataOf(e).id === mine.id);
    const event = await sse.next(
      (e) =>
        (e.event === "message.created" && dataOf(e).contact.id === "ct_dave") ||
        (e.event === "message.updated" && dataOf(e).reactions.length > 0),
    );
    expect(dataOf(event).conversation_id).toBe(id);
    sse.close();
  });
});

describe.skipIf(STORE !== "postgres")("two instances on one PostgreSQL", () => {
  const context = {} as { a: RunningServer; b: RunningServer };
  beforeAll(async () => {
    const db = await freshDb();
    const start = (options: StartOptions = {}) =>
      startServer({ demo: true, demoReplies: false, ...options, db });
    [context.a, context.b] = await Promise.all([start(), start()]);
  });
  afterAll(() => Promise.all([context.a?.close(), context.b?.close()]));

  it("an event made on one reaches a stream on the other", async () => {
    const { a, b } = context;
    const token = (server: RunningServer, user: string) =>
      server.demoUsers.find((u) => u.username === user)!.token;
    const onB = await openEvents(b.url, token(b, "bob"));
    const alice = clientFor(a.url, token(a, "alice"));
    const id = conversation(await alice.post("/v1/conversations", { contact_id: "ct_bob" })).id;
    const sent = await sendMessage(alice, id, "hi");
    expect(dataOf(await onB.next(is("message.created", sent.id)))).toEqual(sent);
    onB.close();
  });
});

/** Changes the database behind the server's back, as an operator revoking a token would. */
async function writeQuery(db: string, text: string, params: string[]): Promise<void> {
  if (STORE === "sqlite") {
    const { DatabaseSync } = await import("node:sqlite");
    const raw = new DatabaseSync(db);
    try {
      raw.prepare(text.replace(/\$\d+/g, "?")).run(...params);
    } finally {
      raw.close();
    }
    return;
  }
  const { default: postgres } = await import("postgres");
  const sql = postgres(db, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(text, params);
  } finally {
    await sql.end();
  }
}
