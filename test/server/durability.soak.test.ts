// Every acknowledged message survives the server being killed with SIGKILL, on SQLite and
// (the "postgres" project) on PostgreSQL.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../wait.ts";
import {
  type Client,
  clientFor,
  contactConversation,
  message,
  messagePage,
  messagePages,
} from "./helpers.ts";
import { freshDb } from "./stores.ts";

const MAIN = new URL("../../src/server/main.ts", import.meta.url).pathname;

type Child = { process: ChildProcess; url: string; tokens: Map<string, string> };

/** Starts `node src/server/main.ts` and reads its banner; ended after the file's tests. */
async function spawnServer(db: string): Promise<Child> {
  const child = spawn(process.execPath, [MAIN, "--db", db, "--port", "0", "--demo"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout! });
  const tokens = new Map<string, string>();
  let url = "";
  for await (const line of lines) {
    const base = /^export PARLEY_BASE_URL=(\S+)$/.exec(line);
    if (base) url = base[1]!;
    const token = /^export PARLEY_TOKEN=(\S+) {2}# (\w+)$/.exec(line);
    if (token) tokens.set(token[2]!, token[1]!);
    if (tokens.size === 6) break;
  }
  if (!url || tokens.size !== 6) throw new Error(`the server did not start: ${stderr}`);
  const started = { process: child, url, tokens };
  children.push(started);
  return started;
}

function send(client: Client, conversationId: string, key: string, text: string) {
  return client.post(
    "/v1/messages",
    { conversation_id: conversationId, message: text },
    { headers: { "Idempotency-Key": key } },
  );
}

/** `send` again until it is answered: a 409 says the first try is still in progress. */
function retry(client: Client, conversationId: string, key: string, text: string) {
  return until(
    async () => {
      const reply = await send(client, conversationId, key, text);
      return reply.status === 409 ? undefined : reply;
    },
    "the retry answered",
    { timeoutMs: 20_000 },
  );
}

function kill(child: Child): Promise<void> {
  return new Promise((resolve) => {
    child.process.once("exit", () => resolve());
    child.process.kill("SIGKILL");
  });
}

const children: Child[] = [];

describe("durability", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-durable-"));
  afterAll(async () => {
    for (const child of children) {
      const running = child.process.exitCode === null && child.process.signalCode === null;
      if (running) await kill(child);
    }
    rmSync(dir, { recursive: true, force: true });
  });
  /** Two instances on one fresh database, started one after the other. */
  const twoInstances = async (name: string) => {
    const db = await freshDb(join(dir, name));
    const first = await spawnServer(db);
    return { first, other: await spawnServer(db) };
  };

  it("keeps every acknowledged message across a SIGKILL", async () => {
    const db = await freshDb(join(dir, "server.db"));
    const first = await spawnServer(db);
    const alice = clientFor(first.url, first.tokens.get("alice")!);
    const conversationId = await contactConversation(alice, "ct_dave");
    const sends = Array.from({ length: 60 }, (_, i) =>
      alice.post("/v1/messages", { conversation_id: conversationId, message: `durable ${i}` }),
    );
    const acknowledged = (await Promise.all(sends)).map((reply) => message(reply).id);
    const edited = message(
      await alice.put(`/v1/messages/${acknowledged[0]}`, { message: "edited" }),
    );
    await kill(first);

    const second = await spawnServer(db);
    expect(second.tokens).toEqual(first.tokens);
    const again = clientFor(second.url, second.tokens.get("alice")!);
    const stored = messagePage(
      await again.get("/v1/messages", { conversation_id: conversationId, limit: 100 }),
    ).data;
    const ids = new Set(stored.map((m) => m.id));
    for (const id of acknowledged) expect(ids.has(id)).toBe(true);
    expect(stored.find((m) => m.id === edited.id)?.message).toBe("edited");
    await kill(second);
  });

  it("keeps every message acknowledged before a SIGKILL that lands mid-burst", async () => {
    const db = await freshDb(join(dir, "burst.db"));
    const first = await spawnServer(db);
    const alice = clientFor(first.url, first.tokens.get("alice")!);
    const conversationId = await contactConversation(alice, "ct_erin");
    const acknowledged: string[] = [];
    let killed: Promise<void> | undefined;
    // Eight senders in a loop; the kill comes after the 40th acknowledgement, with sends
    // still on their way.
    const sender = async (n: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const reply = await alice.post("/v1/messages", {
            conversation_id: conversationId,
            message: `burst ${n}.${i}`,
          });
          if (reply.status === 200 && !killed) acknowledged.push(reply.body.id);
        } catch {
          return; // the connection died with the server
        }
        if (acknowledged.length >= 40) killed ??= kill(first);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, n) => sender(n)));
    await killed;

    const second = await spawnServer(db);
    const again = clientFor(second.url, second.tokens.get("alice")!);
    const pages = await messagePages(again, conversationId);
    const stored = new Set(pages.flat().map((m) => m.id));
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    await kill(second);
  });

  it("stores a send retried on another instance after a SIGKILL once, with its key", async () => {
    const { first, other } = await twoInstances("retry.db");
    const alice = clientFor(first.url, first.tokens.get("alice")!);
    const conversationId = await contactConversation(alice, "ct_frank");
    const sent = new Map<string, string>(); // key -> text, for every send started
    const acknowledged = new Map<string, string>(); // key -> message id
    let killed: Promise<void> | undefined;
    const sender = async (n: number) => {
      for (let i = 0; !killed; i++) {
        const key = `retry-${n}-${i}`;
        sent.set(key, `retry ${n}.${i}`);
        try {
          const reply = await send(alice, conversationId, key, sent.get(key)!);
          if (reply.status === 200) acknowledged.set(key, reply.body.id);
        } catch {
          return; // the connection died with the server
        }
        if (acknowledged.size >= 30) killed ??= kill(first);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, n) => sender(n)));
    await killed;

    // Every send not acknowledged, again with its key, on the instance still running:
    // stored before the kill, it is answered from the store; not stored, it is stored now.
    const again = clientFor(other.url, other.tokens.get("alice")!);
    const retried = new Map<string, string>();
    for (const [key, text] of sent) {
      if (acknowledged.has(key)) continue;
      const reply = await retry(again, conversationId, key, text);
      expect(message(reply).message).toBe(text);
      retried.set(key, reply.body.id);
    }
    expect(retried.size).toBeGreaterThan(0);
    // Each retry of an acknowledged send answers its stored message too.
    for (const [key, id] of [...acknowledged].slice(0, 3)) {
      expect(message(await send(again, conversationId, key, sent.get(key)!)).id).toBe(id);
    }

    const pages = await messagePages(again, conversationId);
    const stored = pages.flat().filter((m) => m.message.startsWith("retry "));
    const texts = stored.map((m) => m.message);
    expect(new Set(texts).size).toBe(texts.length); // no duplicate
    const expected = new Set([...acknowledged.values(), ...retried.values()]);
    expect(new Set(stored.map((m) => m.id))).toEqual(expected);
    await kill(other);
  });

  it("answers a send stored but never acknowledged before a SIGKILL from the store", async () => {
    const { first, other } = await twoInstances("unacknowledged.db");
    const again = clientFor(other.url, other.tokens.get("alice")!);
    const conversationId = await contactConversation(again, "ct_erin");
    // Sent over a raw socket whose answers are never read: the server stores each
    // message, and the client never learns of it.
    const texts = Array.from({ length: 6 }, (_, i) => `unheard ${i}`);
    const socket = connect(Number(new URL(first.url).port), "127.0.0.1");
    socket.pause();
    socket.on("error", () => {});
    for (const [i, text] of texts.entries()) {
      const body = new URLSearchParams({ conversation_id: conversationId, message: text });
      socket.write(
        `POST /v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${first.tokens.get("alice")}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nIdempotency-Key: unheard-${i}\r\n` +
          `Content-Length: ${Buffer.byteLength(body.toString())}\r\n\r\n${body}`,
      );
    }
    const listed = async () =>
      messagePage(
        await again.get("/v1/messages", { conversation_id: conversationId, limit: 100 }),
      ).data.filter((m) => m.message.startsWith("unheard "));
    const stored = await until(
      async () => ((await listed()).length === texts.length ? await listed() : undefined),
      "every send stored",
      { timeoutMs: 20_000 },
    );
    await kill(first);
    socket.destroy();

    for (const [i, text] of texts.entries()) {
      const reply = await retry(again, conversationId, `unheard-${i}`, text);
      expect(reply.headers.get("idempotent-replayed")).toBe("true");
      expect(message(reply).id).toBe(stored.find((m) => m.message === text)!.id);
    }
    expect((await listed()).map((m) => m.id).sort()).toEqual(stored.map((m) => m.id).sort());
    await kill(other);
  });

  it("exits cleanly on SIGTERM", async () => {
    const child = await spawnServer(await freshDb(join(dir, "term.db")));
    const exited = new Promise<number | null>((resolve) => child.process.once("exit", resolve));
    child.process.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
