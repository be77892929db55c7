// `parley ssh` in this process, with ssh2 clients: a session that ends frees what it held.
// Sessions come and go one after another, and after a full garbage collection the heap
// must not grow with their number (each session's client, its Ink tree, query cache,
// frames and timers, is several megabytes). Thirty sessions in a row: a soak, run by
// `npm run test:soak`.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { pause, until } from "../wait.ts";
import { inProcessSshForFile, visit } from "./visit.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const running = inProcessSshForFile();

async function heapAfterGc(): Promise<number> {
  // Twice, with turns of the event loop between: finalizers and timers let go in stages.
  for (let i = 0; i < 3; i++) {
    gc();
    await pause(50);
  }
  return process.memoryUsage().heapUsed / 2 ** 20;
}

describe("parley ssh sessions", () => {
  it("free what they held when they end: the heap does not grow with sessions", async () => {
    const users = running.api.demoUsers.map((u) => u.username);
    const round = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await visit(running.ssh, users[i % users.length]!);
        await until(() => running.ssh.liveSessions() === 0, "the session to be freed");
      }
    };
    // Warm up: caches that are meant to stay (Ink's line caches, JIT code, the server's pages).
    await round(6);
    const before = await heapAfterGc();
    await round(24);
    const after = await heapAfterGc();
    expect(running.ssh.liveSessions()).toBe(0);
    // 24 more sessions: far below one session's size each.
    expect(after - before, `heap ${before.toFixed(1)} MB -> ${after.toFixed(1)} MB`).toBeLessThan(
      12,
    );
  }, 120_000);
});
