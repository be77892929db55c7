// The client's side of /v1/events and of conditional GETs, against the real embedded server
// over real HTTP (and small node:http servers for what the real one never does).
import { rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { createApi, type EventsState, type ServerEvent } from "../../src/api/client.ts";
import { eventsApi } from "../../src/api/events.ts";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { freshDb, STORE } from "../server/stores.ts";
import { until } from "../wait.ts";

const running: { close(): Promise<void> | void }[] = [];
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(db?: string, port = 0): Promise<RunningServer> {
  const server = await startServer({
    port,
    demo: true,
    demoReplies: false,
    db: db ?? (await freshDb()),
    events: { keepAliveMs: 200 },
  });
  running.push(server);
  return server;
}

const tokenOf = (server: RunningServer, username: string) =>
  server.demoUsers.find((u) => u.username === username)!.token;

/** Follows the stream of `username`, recording every state and event. */
function follow(url: string, token: string) {
  const states: EventsState[] = [];
  const events: ServerEvent[] = [];
  const api = createApi({ baseUrl: url, token, retryDelayMs: 5 });
  const { stop } = api.events.follow({
    onState: (state) => states.push(state),
    onEvent: (event) => events.push(event),
  });
  stops.push(stop);
  const state = () => states[states.length - 1];
  return { api, states, events, state, stop };
}

/** A server that answers /v1/events with `answer`. */
async function fakeServer(answer: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  running.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Bob's conversation with alice (the existing one). */
const sharedConversation = (bob: ReturnType<typeof createApi>) =>
  bob.conversations.create({ contact_id: "ct_alice" });

describe("the event stream, followed", () => {
  it("goes live and hands over a message from someone else, parsed", async () => {
    const server = await start();
    const alice = follow(server.url, tokenOf(server, "alice"));
    await until(() => alice.state() === "live", "alice's stream live");
    const bob = createApi({ baseUrl: server.url, token: tokenOf(server, "bob") });
    const shared = await sharedConversation(bob);
    const sent = await bob.messages.send({ conversation_id: shared.id, message: "over the wire" });
    const event = await until(
      () => alice.events.find((e) => e.type === "message.created" && e.message.id === sent.id),
      "bob's message on alice's stream",
    );
    expect(event).toMatchObject({
      message: { message: "over the wire", conversation_id: shared.id },
    });
  });

  it.skipIf(STORE === "postgres")(
    "comes back after a server restart and replays what was sent while it was down",
    async () => {
      const file = `${tmpdir()}/parley-events-${process.pid}-${Date.now()}.db`;
      const db = await freshDb(file);
      running.push({
        close: () => {
          for (const end of ["", "-wal", "-shm"]) rmSync(`${file}${end}`, { force: true });
        },
      });
      const first = await start(db);
      const port = Number(new URL(first.url).port);
      const alice = follow(first.url, tokenOf(first, "alice"));
      await until(() => alice.state() === "live", "alice's stream live");
      const bobToken = tokenOf(first, "bob");
      const bob = createApi({ baseUrl: first.url, token: bobToken });
      const shared = await sharedConversation(bob);
      await bob.messages.send({ conversation_id: shared.id, message: "before" });
      await until(() => alice.events.length > 0, "an event on alice's stream");
      await first.close();
      await until(() => alice.states.includes("down"), "alice's stream down");
      // While the stream is down, the message goes in straight through the store.
      const second = await start(db, port);
      const during = await createApi({ baseUrl: second.url, token: bobToken }).messages.send({
        conversation_id: shared.id,
        message: "while it was down",
      });
      await until(() => alice.states.filter((s) => s === "live").length === 2, "live again");
      await until(
        () => alice.events.some((e) => e.type === "message.created" && e.message.id === during.id),
        "the message sent while down, replayed",
      );
    },
  );

  it.each([404, 405, 406, 501])("takes a %i for a server without events", async (status) => {
    const url = await fakeServer((_, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end('{"error":{"type":"invalid_request","message":"no"}}');
    });
    const client = follow(url, "t");
    await until(() => client.state() === "none", "no events (state none)");
  });

  it("takes a 200 that is not an event stream for a server without events", async () => {
    const url = await fakeServer((_, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>hello</html>");
    });
    const client = follow(url, "t");
    await until(() => client.state() === "none", "no events (state none)");
  });

  it("sends the token and Last-Event-ID, and drops a stream whose event never ends", async () => {
    const seen: { authorization?: string; lastEventId?: string }[] = [];
    const url = await fakeServer((req, res) => {
      seen.push({
        authorization: req.headers.authorization,
        lastEventId: req.headers["last-event-id"] as string | undefined,
      });
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("id: 7\nevent: reset\ndata: {}\n\n");
      // One event's data that goes on past the 1 MiB bound.
      res.write(`data: ${"x".repeat(600 * 1024)}`);
      res.write("x".repeat(600 * 1024));
    });
    const client = follow(url, "secret");
    await until(() => client.states.includes("down"), "the stream down");
    expect(client.events).toEqual([{ type: "reset" }]);
    await until(() => seen.length >= 2, "a second request");
    expect(seen[0]).toEqual({ authorization: "Bearer secret", lastEventId: undefined });
    expect(seen[1]).toEqual({ authorization: "Bearer secret", lastEventId: "7" });
  });

  it("drops a stream whose data lines never end, comments between them or not", async () => {
    let streams = 0;
    const url = await fakeServer((_, res) => {
      streams++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      // 64 KiB data lines, each followed by a comment: no blank line ever ends the event.
      const line = `data: ${"x".repeat(64 * 1024)}\n: still here\n`;
      const timer = setInterval(() => res.write(line), 1);
      res.on("close", () => clearInterval(timer));
    });
    const client = follow(url, "t");
    await until(() => client.states.includes("down"), "the stream down");
    expect(streams).toBeGreaterThanOrEqual(1);
    expect(client.events).toEqual([]);
  });

  it("starts afresh, as after a reset, when resumes from one cursor keep ending at once", async () => {
    const seen: (string | undefined)[] = [];
    const url = await fakeServer((req, res) => {
      const cursor = req.headers["last-event-id"] as string | undefined;
      seen.push(cursor);
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (cursor === undefined)
        res.write('id: 3\nevent: message.deleted\ndata: {"id": "m", "conversation_id": "c"}\n\n');
      // Every resume from 3 is cut before a byte of it.
      res.end();
    });
    const events: ServerEvent[] = [];
    const { stop } = eventsApi({
      baseUrl: url,
      token: "t",
      timeoutMs: 5000,
      backoff: { baseMs: 5, maxMs: 20 },
    }).follow({ onState: () => {}, onEvent: (event) => events.push(event) });
    stops.push(stop);
    await until(() => seen.length >= 5, "five requests");
    // The first stream, then three resumes from 3 that brought nothing, then afresh.
    expect(seen.slice(0, 5)).toEqual([undefined, "3", "3", "3", undefined]);
    expect(events.filter((e) => e.type === "reset").length).toBeGreaterThanOrEqual(1);
  });

  it("reads messages.read, and leaves one with no reader or time out", async () => {
    const url = await fakeServer((_, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('event: messages.read\ndata: {"conversation_id": "c", "reader": "bob"}\n\n');
      res.write(
        'event: messages.read\ndata: {"conversation_id": "c", "reader": "bob", "read_at": 1700000000}\n\n',
      );
    });
    const client = follow(url, "t");
    await until(() => client.events.length === 1, "one event");
    expect(client.events[0]).toEqual({
      type: "messages.read",
      read: { conversation_id: "c", reader: "bob", read_at: 1700000000 },
    });
  });

  it("leaves out events that do not fit the contract", async () => {
    const url = await fakeServer((_, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: message.created\ndata: not json\n\n");
      res.write('event: message.created\ndata: {"id": 1}\n\n');
      res.write('event: something.else\ndata: {"id": "a"}\n\n');
      res.write('event: message.deleted\ndata: {"id": 5, "conversation_id": "c"}\n\n');
    });
    const client = follow(url, "t");
    await until(() => client.events.length === 1, "one event");
    expect(client.events[0]).toEqual({
      type: "message.deleted",
      removed: { id: "5", conversation_id: "c" },
    });
  });
});

describe("conditional GETs", () => {
  it("asks with If-None-Match and reads a 304 as the answer it had", async () => {
    const server = await start();
    const statuses: number[] = [];
    const conditional: boolean[] = [];
    const api = createApi({
      baseUrl: server.url,
      token: tokenOf(server, "alice"),
      fetch: async (input, init) => {
        conditional.push(new Headers(init?.headers).has("if-none-match"));
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    });
    const first = await api.conversations.list({ limit: 5 });
    const again = await api.conversations.list({ limit: 5 });
    expect(statuses).toEqual([200, 304]);
    expect(conditional).toEqual([false, true]);
    // Read as the same object: TanStack Query sees it unchanged without comparing it.
    expect(again).toBe(first);
    // Another URL is another answer.
    await api.conversations.list({ limit: 6 });
    expect(statuses).toEqual([200, 304, 200]);
  });

  it("keeps no answer for a page of history further back (the client lets those go)", async () => {
    const server = await start();
    const statuses: number[] = [];
    const api = createApi({
      baseUrl: server.url,
      token: tokenOf(server, "alice"),
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    });
    const { id } = (await api.conversations.list({ limit: 1 })).data[0]!;
    const newest = await api.messages.list({ conversation_id: id, limit: 2 });
    const older = { conversation_id: id, limit: 2, starting_after: newest.data[1]!.id };
    await api.messages.list(older);
    await api.messages.list(older);
    await api.messages.list({ conversation_id: id, limit: 2 });
    // The newest page (polled) is asked for conditionally; the older one is not.
    expect(statuses).toEqual([200, 200, 200, 200, 304]);
  });
});
