// `parley ssh` in this process, with ssh2 clients. A session that ends frees what it held:
// sessions come and go one after another, and after a full garbage collection the heap
// must not grow with their number (each session's client, its Ink tree, query cache,
// frames and timers, is several megabytes). Sessions also run on worker threads (the
// built dist/ssh-worker.js, as `parley ssh` runs them), and a worker that dies ends its
// sessions with a message instead of leaving them hanging.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { type Crash, type HostPool, workerPool } from "../../src/ssh/pool.ts";
import { type SshServer, startSshServer } from "../../src/ssh/server.ts";
import { clientKey, visit } from "./visit.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let api: RunningServer;
let ssh: SshServer;

beforeAll(async () => {
  api = await startServer({ port: 0, demo: true, demoReplies: false });
  ssh = await startSshServer({
    hostKey: ssh2.utils.generateKeyPairSync("ed25519").private,
    api: { url: api.url, users: api.demoUsers },
    authorizedKeys: null,
  });
});

afterAll(async () => {
  await ssh?.close();
  await api?.close();
});

async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function heapAfterGc(): Promise<number> {
  // Twice, with turns of the event loop between: finalizers and timers let go in stages.
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
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

/** A session held open, on screen, until `end`. */
async function holdSession(username: string): Promise<{ end: () => void }> {
  const client = new ssh2.Client();
  await new Promise<void>((resolve, reject) => {
    client.on("error", reject);
    client.on("ready", () => {
      client.shell({ term: "xterm-256color", cols: 100, rows: 30 }, (error, stream) => {
        if (error) return reject(error);
        let screen = "";
        stream.on("data", (chunk: Buffer) => {
          screen += chunk.toString("utf8");
          if (screen.includes("online")) resolve();
        });
      });
    });
    client.connect({ host: ssh.host, port: ssh.port, username, privateKey: clientKey });
  });
  return { end: () => client.end() };
}

describe("parley ssh sessions and the event stream", () => {
  it("hold one stream each, and give it back when they end", async () => {
    const users = api.demoUsers.map((u) => u.username);
    const before = api.eventStreams();
    const held = await Promise.all(users.slice(0, 4).map(holdSession));
    await until(() => api.eventStreams() === before + 4, "a stream per session", 20_000);
    for (const session of held) session.end();
    await until(() => ssh.liveSessions() === 0, "every session freed");
    await until(() => api.eventStreams() === before, "the streams closed");
  }, 60_000);
});

const WORKER_SCRIPT = new URL("../../dist/ssh-worker.js", import.meta.url);

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

describe.skipIf(!existsSync(WORKER_SCRIPT))("parley ssh sessions on worker threads", () => {
  it("run on every worker: people sign in, type and leave", async () => {
    const threaded = await startSshServer({
      hostKey: ssh2.utils.generateKeyPairSync("ed25519").private,
      api: { url: api.url, users: api.demoUsers },
      authorizedKeys: null,
      hostScript: WORKER_SCRIPT,
      hostThreads: 2,
    });
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
      await until(() => drawn.includes("online"), "the session's first screen", 20_000);
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
