// The server in the open, over real sockets: connection caps per address and in all,
// requests that never finish their headers or body, wrong tokens logged and slowed, a
// revoked token's stream ended by a write from another connection to the database, and
// events from another process on the same database.
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/index.ts";
import { openStore } from "../../src/server/store/index.ts";
import { until } from "../wait.ts";
import { clientFor, groupConversation, message } from "./helpers.ts";
import { openEvents } from "./sse.ts";
import { freshDb } from "./stores.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-open-"));
const running: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of running.splice(0)) await server.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(options: StartOptions = {}) {
  const log: string[] = [];
  const db = options.db ?? (await freshDb(join(dir, `${running.length}-${Date.now()}.db`)));
  const server = await startServer({
    port: 0,
    demo: true,
    demoReplies: false,
    ...options,
    db,
    log: (line) => log.push(line),
  });
  running.push(server);
  return { server, log, db };
}

type Held = { socket: Socket; closed: boolean; data: string };

/** A raw connection to the server, from `from` (any 127.x address is this machine). */
async function hold(server: RunningServer, from = "127.0.0.1"): Promise<Held> {
  const socket = connect({ host: "127.0.0.1", port: server.port, localAddress: from });
  sockets.push(socket);
  const held: Held = { socket, closed: false, data: "" };
  socket.on("data", (chunk) => {
    held.data += chunk.toString("latin1");
  });
  socket.on("error", () => {});
  socket.on("close", () => {
    held.closed = true;
  });
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  return held;
}

describe("connection caps", () => {
  it("refuse connections past the per-address cap and past the total, and say so", async () => {
    const { server, log } = await start({ connections: { maxConnections: 6, maxPerAddress: 3 } });
    const first = await Promise.all([1, 2, 3].map(() => hold(server)));
    const fourth = await hold(server);
    await until(() => fourth.closed, "the fourth connection from 127.0.0.1 closed");
    expect(fourth.data).toBe("");
    expect(log).toContain(
      "parley serve: refused a connection from 127.0.0.1: 3 connections from this address",
    );
    // Another address has room of its own, until the total is reached.
    const others = await Promise.all([1, 2, 3].map(() => hold(server, "127.0.0.2")));
    const seventh = await hold(server, "127.0.0.3");
    await until(() => seventh.closed, "the seventh connection closed");
    expect(log).toContain(
      "parley serve: refused a connection from 127.0.0.3: 6 connections in all",
    );
    expect([...first, ...others].some((h) => h.closed)).toBe(false);
    // One goes, and a connection from that address is taken again: it gets an answer.
    first[0]!.socket.destroy();
    await until(async () => {
      const again = await hold(server);
      again.socket.write("GET /v1/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      await until(() => again.closed, "the answer");
      return again.data.startsWith("HTTP/1.1 401");
    }, "a connection taken once there is room");
  });
});

describe("requests that never finish", () => {
  it("are closed: silent, headers dripping, a body that never ends; a stream stays", async () => {
    const { server } = await start({
      connections: { headersTimeoutMs: 1000, requestTimeoutMs: 2000 },
    });
    const token = server.demoUsers[0]!.token;
    const stream = await openEvents(server.url, token);
    expect(stream.status).toBe(200);
    const silent = await hold(server);
    const dripping = await hold(server);
    dripping.socket.write("GET /v1/conversations HTTP/1.1\r\nHost: x\r\n");
    const drip = setInterval(() => dripping.socket.write("X-Drip: 1\r\n"), 200);
    const body = await hold(server);
    body.socket.write(
      `POST /v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nmessage=",
    );
    const drizzle = setInterval(() => body.socket.write("a"), 200);
    try {
      await until(() => silent.closed && dripping.closed && body.closed, "all three closed");
    } finally {
      clearInterval(drip);
      clearInterval(drizzle);
    }
    // Past the request timeout, the event stream (one long answer) is still open.
    expect(stream.ended).toBe(false);
    stream.close();
  });
});

describe("wrong tokens", () => {
  it("are logged with the address, and answered ever more slowly", async () => {
    const { server, log } = await start();
    const wrong = clientFor(server.url, "prly_guess");
    for (let i = 0; i < 5; i++) expect((await wrong.get("/v1/conversations")).status).toBe(401);
    const failed = log.filter((line) => line.startsWith("parley serve: authentication failed"));
    expect(failed).toHaveLength(5);
    expect(failed[0]).toBe("parley serve: authentication failed from 127.0.0.1: unknown token");
    // The sixth waits before its answer (a lower bound: never flaky on a slow machine).
    const started = Date.now();
    expect((await wrong.get("/v1/conversations")).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(log.at(-1)).toBe(
      "parley serve: authentication failed from 127.0.0.1: unknown token; answered after 250 ms",
    );
    // The right token is never slowed or logged.
    const alice = clientFor(server.url, server.demoUsers[0]!.token);
    expect((await alice.get("/v1/conversations")).status).toBe(200);
    expect(log.filter((line) => line.includes("authentication failed"))).toHaveLength(6);
  });
});

describe("a revoked token", () => {
  it("ends its open stream, revoked through another connection to the database", async () => {
    // Keep-alives (which check tokens too) far apart: only the revocation can end it.
    const { server, db } = await start({ events: { keepAliveMs: 600_000 } });
    const bob = server.demoUsers.find((u) => u.username === "bob")!;
    const stream = await openEvents(server.url, bob.token);
    expect(stream.status).toBe(200);
    // As `parley users revoke bob` does, from a process of its own.
    const other = await openStore(db);
    try {
      expect(await other.accounts.revoke("bob", undefined)).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
    await until(() => stream.ended, "bob's stream ended");
    expect((await clientFor(server.url, bob.token).get("/v1/conversations")).status).toBe(401);
  });
});

describe("two servers on one database", () => {
  it("each hear of the other's messages on their streams", async () => {
    const a = await start({ events: { keepAliveMs: 600_000 } });
    const b = await start({ db: a.db, events: { keepAliveMs: 600_000 } });
    const [alice, bob] = [a.server.demoUsers[0]!, a.server.demoUsers[1]!];
    const stream = await openEvents(a.server.url, bob.token);
    const sender = clientFor(b.server.url, alice.token);
    const id = await groupConversation(sender, "grp_design");
    const sent = message(await sender.post("/v1/messages", { conversation_id: id, message: "hi" }));
    const event = await stream.next(
      (e) => e.event === "message.created" && e.data.includes(sent.id),
    );
    expect(event.event).toBe("message.created");
    stream.close();
  });
});
