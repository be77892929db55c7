// `parley ssh` in this process, with ssh2 clients. Sessions run on worker threads (the
// built dist/ssh-worker.cjs, as `parley ssh` runs them), and a worker that dies ends its
// sessions with a message instead of leaving them hanging. (That a session frees what it
// held is a soak: heap.soak.test.ts.)

import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { type Crash, type HostPool, workerPool } from "../../src/ssh/pool.ts";
import { startSshServer } from "../../src/ssh/server.ts";
import { until } from "../wait.ts";
import { connect, shell } from "./built.ts";
import { clientKey, visit } from "./visit.ts";

let api: RunningServer;

beforeAll(async () => {
  api = await startServer({ port: 0, demo: true, demoReplies: false });
});

afterAll(async () => {
  await api?.close();
});

const WORKER_SCRIPT = new URL("../../dist/ssh-worker.cjs", import.meta.url);

/** Opens alice's session (id 1) on `pool`; resolves when it ends, with its crash if any. */
function openAlice(
  pool: HostPool,
  output: (data: string) => void = () => {},
): Promise<Crash | undefined> {
  return new Promise((done) => {
    pool.open(
      {
        type: "open",
        id: 1,
        username: "alice",
        token: api.demoUsers.find((u) => u.username === "alice")!.token,
        apiUrl: api.url,
        columns: 100,
        rows: 30,
        env: { TERM: "xterm-256color" },
      },
      { output, done },
    );
  });
}

/** `parley ssh` in this process, its sessions on `threads` workers, anyone signing in. */
function onWorkers(threads: number, log?: (line: string) => void) {
  return startSshServer({
    hostKey: newHostKey().private,
    api: { url: api.url, users: api.demoUsers },
    authorizedKeys: null,
    hostScript: WORKER_SCRIPT,
    hostThreads: threads,
    ...(log ? { log } : {}),
  });
}

describe.skipIf(!existsSync(WORKER_SCRIPT))("parley ssh sessions on worker threads", () => {
  it("run on every worker: people sign in, type and leave", async () => {
    const threaded = await onWorkers(2);
    try {
      expect(threaded.threads).toBe(2);
      const users = api.demoUsers.map((u) => u.username);
      // Four at once: two on each worker.
      await Promise.all(users.slice(0, 4).map((name) => visit(threaded, name)));
      await until(() => threaded.liveSessions() === 0, "every session freed");
    } finally {
      await threaded.close();
    }
  }, 60_000);

  it("replace a worker left without sessions, so the memory it grew goes back", async () => {
    // Kept warm 0.5 s here (30 s in parley ssh) for whoever connects next.
    const pool = workerPool(WORKER_SCRIPT, 1, () => {}, 500);
    try {
      const [first] = pool.threadIds();
      let drawn = "";
      const ended = openAlice(pool, (data) => {
        drawn += data;
      });
      await until(() => drawn.includes("online"), "the session's first screen", {
        timeoutMs: 20_000,
      });
      expect(pool.threadIds()).toEqual([first]);
      pool.send({ type: "drop", id: 1 });
      expect(await ended).toBeUndefined();
      expect(pool.threadIds()).toEqual([first]);
      await until(
        () => pool.threadIds().length === 1 && pool.threadIds()[0] !== first,
        "a fresh worker in the old one's place",
      );
    } finally {
      await pool.close();
    }
  }, 30_000);

  it("end a removed person's sessions once, however many ways the removal is heard", async () => {
    const logged: string[] = [];
    const server = await onWorkers(1, (line) => logged.push(line));
    try {
      const alice = await shell(await connect(server.port, "alice", { privateKey: clientKey }));
      await alice.waitFor("● online", "alice's list");
      // The removal's event, and the look at the accounts that found her gone, one after
      // the other: the second finds her session ending, not another to end.
      expect(server.endSessionsOf("alice")).toBe(1);
      expect(server.endSessionsOf("alice")).toBe(0);
      await alice.closed;
      expect(alice.text()).toContain("your access to this server was removed");
      expect(logged.filter((l) => l.includes("ended "))).toEqual([
        'parley ssh: ended 1 session of "alice": removed',
      ]);
    } finally {
      await server.close();
    }
  }, 30_000);

  it("end a dead worker's sessions with the reason", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-worker-"));
    const script = join(dir, "dies.mjs");
    writeFileSync(script, 'throw new Error("this worker dies at once");\n');
    const logged: string[] = [];
    const pool = workerPool(pathToFileURL(script), 1, (line) => logged.push(line));
    try {
      const crash = await openAlice(pool);
      expect(crash?.message).toMatch(/worker thread stopped/);
      await until(() => logged.some((l) => l.includes("this worker dies at once")), "the log");
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
