// Every acknowledged message survives the server being killed with SIGKILL, on SQLite and
// (the "postgres" project) on PostgreSQL.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { clientFor, contactConversation, message, messagePage } from "./helpers.ts";
import { freshDb } from "./stores.ts";

const MAIN = new URL("../../src/server/main.ts", import.meta.url).pathname;

type Child = { process: ChildProcess; url: string; tokens: Map<string, string> };

/** Starts `node src/server/main.ts` and reads its banner. */
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
  return { process: child, url, tokens };
}

function kill(child: Child): Promise<void> {
  return new Promise((resolve) => {
    child.process.once("exit", () => resolve());
    child.process.kill("SIGKILL");
  });
}

describe("durability", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-durable-"));
  const children: Child[] = [];
  afterAll(async () => {
    for (const child of children) {
      const running = child.process.exitCode === null && child.process.signalCode === null;
      if (running) await kill(child);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every acknowledged message across a SIGKILL", async () => {
    const db = await freshDb(join(dir, "server.db"));
    const first = await spawnServer(db);
    children.push(first);
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
    children.push(second);
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
    children.push(first);
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
    children.push(second);
    const again = clientFor(second.url, second.tokens.get("alice")!);
    const stored = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = messagePage(
        await again.get("/v1/messages", {
          conversation_id: conversationId,
          limit: 100,
          ...(after ? { starting_after: after } : {}),
        }),
      );
      for (const m of page.data) stored.add(m.id);
      if (!page.has_more) break;
      after = page.data.at(-1)!.id;
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    await kill(second);
  });

  it("exits cleanly on SIGTERM", async () => {
    const child = await spawnServer(await freshDb(join(dir, "term.db")));
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.process.once("exit", resolve));
    child.process.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
