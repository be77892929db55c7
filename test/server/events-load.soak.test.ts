// /v1/events at a team's pace, on both stores, with the server's own limits (256 KiB
// waiting per stream): a reader that reads is never cut, however many events come at once
// (a burst, an opening that marks hundreds read, a resume after a backlog), and a reader
// that stopped is cut without the server holding more for it.
import { connect } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { type Client, contactConversation, type TestServer, useServer } from "./helpers.ts";
import { dataOf, openEvents, type Sse } from "./sse.ts";

/** Sends `count` messages of `size` characters, `parallel` at a time; their ids in order sent. */
async function flood(from: Client, conversationId: string, count: number, size: number) {
  const parallel = 20;
  const text = (i: number) => `burst ${i} `.padEnd(size, "x");
  for (let start = 0; start < count; start += parallel) {
    const sends = [];
    for (let i = start; i < Math.min(count, start + parallel); i++) {
      sends.push(from.post("/v1/messages", { conversation_id: conversationId, message: text(i) }));
    }
    for (const reply of await Promise.all(sends)) expect(reply.status).toBe(200);
  }
}

const created = (sse: Sse, from = 0) =>
  sse.events.slice(from).filter((event) => event.event === "message.created").length;

async function allCame(sse: Sse, count: number, from = 0): Promise<void> {
  await vi.waitFor(
    () => {
      if (sse.ended) throw new Error(`the stream was cut after ${created(sse, from)} events`);
      expect(created(sse, from)).toBe(count);
    },
    { timeout: 60_000, interval: 50 },
  );
}

/** Where `reader`'s stream stood after one message from `from`: a cursor to resume at. */
async function cursorAfterOne(t: TestServer, from: Client, id: string, reader: string) {
  const first = await openEvents(t.server.url, t.as(reader).token);
  await flood(from, id, 1, 10);
  await allCame(first, 1);
  first.close();
  return first.events.at(-1)!.id!;
}

describe("a stream that reads", { timeout: 60_000 }, () => {
  const t = useServer({ rateLimit: false });

  it("takes 800 messages sent 20 at a time, and one event for their reading", async () => {
    const bob = t.as("bob");
    const id = await contactConversation(bob, "ct_alice");
    const [alice, bobs] = [
      await openEvents(t.server.url, t.as("alice").token),
      await openEvents(t.server.url, bob.token),
    ];
    const streams = t.server.eventStreams();
    await flood(bob, id, 800, 220);
    await allCame(alice, 800);
    await allCame(bobs, 800);

    const before = bobs.events.length;
    const opened = await t.as("alice").get(`/v1/conversations/${id}`);
    expect(opened.status).toBe(200);
    const read = dataOf(await bobs.next((event) => event.event === "messages.read", before));
    expect(read).toEqual({
      conversation_id: id,
      reader: "alice",
      read_at: opened.body.last_opened_at,
    });
    // One event for the opening, not one per message read.
    await alice.next((event) => event.event === "messages.read", before);
    expect(bobs.events.slice(before).map((event) => event.event)).toEqual(["messages.read"]);
    expect([alice.ended, bobs.ended]).toEqual([false, false]);
    expect(t.server.eventStreams()).toBe(streams);
    alice.close();
    bobs.close();
  });

  it("resumes after a backlog of 1,000 messages and gets every one", async () => {
    const bob = t.as("bob");
    const id = await contactConversation(bob, "ct_carol");
    const cursor = await cursorAfterOne(t, bob, id, "carol");

    await flood(bob, id, 1000, 220);
    const resumed = await openEvents(t.server.url, t.as("carol").token, {
      "last-event-id": cursor,
    });
    await allCame(resumed, 1000);
    const ids = resumed.events.map((event) => Number(event.id));
    expect(ids.every((each, i) => i === 0 || each > ids[i - 1]!)).toBe(true);
    // Live again after the replay: the next message comes as it is sent.
    await flood(bob, id, 1, 10);
    await allCame(resumed, 1001);
    resumed.close();
  });
});

describe("a resume while others write", { timeout: 60_000 }, () => {
  const t = useServer({ rateLimit: false });

  it("gets each event once, in order: the replay, then what came during it", async () => {
    const bob = t.as("bob");
    const id = await contactConversation(bob, "ct_erin");
    const cursor = await cursorAfterOne(t, bob, id, "erin");
    await flood(bob, id, 200, 100);
    // Sending goes on while the stream resumes: live events meet the replay.
    const sending = flood(bob, id, 200, 100);
    const resumed = await openEvents(t.server.url, t.as("erin").token, { "last-event-id": cursor });
    await sending;
    await allCame(resumed, 400);
    const ids = resumed.events.map((event) => Number(event.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((each, i) => i === 0 || each > ids[i - 1]!)).toBe(true);
    resumed.close();
  });
});

describe("a stream that stopped reading", { timeout: 60_000 }, () => {
  const t = useServer({ rateLimit: false, events: { stallMs: 500 } });

  it("is cut, and its resume after 2,000-character messages delivers them all", async () => {
    const bob = t.as("bob");
    const id = await contactConversation(bob, "ct_dave");
    const dave = t.as("dave");
    const cursor = await cursorAfterOne(t, bob, id, "dave");

    // A raw socket that reads nothing: the server stops writing at its limit, then cuts it.
    const url = new URL(t.server.url);
    const socket = connect(Number(url.port), url.hostname);
    socket.on("error", () => {});
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write(
      `GET /v1/events HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${dave.token}\r\nAccept: text/event-stream\r\nLast-Event-ID: ${cursor}\r\n\r\n`,
    );
    socket.pause();
    const base = t.server.eventStreams();
    // The biggest messages fill the socket's buffers soonest (megabytes on loopback).
    let sent = 0;
    while (t.server.eventStreams() >= base && sent < 2000) {
      await flood(bob, id, 20, 9000);
      sent += 20;
    }
    expect(t.server.eventStreams()).toBeLessThan(base);
    socket.destroy();
    await closed;
    // While dave is away, a backlog of 2,000-character messages.
    await flood(bob, id, 300, 2000);
    sent += 300;

    const resumed = await openEvents(t.server.url, dave.token, { "last-event-id": cursor });
    await allCame(resumed, sent);
    expect(resumed.ended).toBe(false);
    resumed.close();
  });
});
