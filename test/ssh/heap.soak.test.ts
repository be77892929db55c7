// `parley ssh` in this process, with ssh2 clients: a session that ends frees what it held.
// Sessions come and go one after another, and after a full garbage collection the heap
// must not grow with their number (each session's client, its Ink tree, query cache,
// frames and timers, is several megabytes). Thirty sessions in a row: a soak, run by
// `npm run test:soak`.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { type SshServer, startSshServer } from "../../src/ssh/server.ts";
import { pause, until } from "../wait.ts";
import { visit } from "./visit.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let api: RunningServer;
let ssh: SshServer;

beforeAll(async () => {
  api = await startServer({ port: 0, demo: true, demoReplies: false });
  ssh = await startSshServer({
    hostKey: newHostKey().private,
    api: { url: api.url, users: api.demoUsers },
    authorizedKeys: null,
  });
});

afterAll(async () => {
  await ssh?.close();
  await api?.close();
});

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
    const users = api.demoUsers.map((u) => u.username);
    const round = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await visit(ssh, users[i % users.length]!);
        await until(() => ssh.liveSessions() === 0, "the session to be freed");
      }
    };
    // Warm up: caches that are meant to stay (Ink's line caches, JIT code, the server's pages).
    await round(6);
    const before = await heapAfterGc();
    await round(24);
    const after = await heapAfterGc();
    expect(ssh.liveSessions()).toBe(0);
    // 24 more sessions: far below one session's size each.
    expect(after - before, `heap ${before.toFixed(1)} MB -> ${after.toFixed(1)} MB`).toBeLessThan(
      12,
    );
  }, 120_000);
});
