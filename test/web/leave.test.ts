// What visitors leave behind in `parley web --demo`: nothing that grows. Sessions (on this
// thread, src/web/server.ts from source) each with a world of their own join and leave
// over and over; afterwards their worlds are collected (a WeakRef to each), no handle or
// timer of theirs is open, and this thread's heap is back within a bound that a few
// kept sessions or worlds would pass. One world may stay reachable: React keeps the last
// root it flushed in a variable of its own (and, in its development build, the stack of
// where each element was made), which leads to that session and its world.
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { demoWorlds } from "../../src/server/demo/worlds.ts";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/index.ts";
import { exposedGc } from "../../src/ssh/idle-gc.ts";
import { startWebServer, type WebServer } from "../../src/web/server.ts";
import { until } from "../wait.ts";

const PAGE = new URL("../../src/web/page/", import.meta.url);
const CYCLES = 6;
const AT_ONCE = 3;
/** A session holds some 2 MB of heap: 18 kept would be far past this. */
const HEAP_BOUND_MB = 12;

const gc = exposedGc();

/** This thread's heap in MiB, after full GCs. */
function settledHeap(): number {
  for (let i = 0; i < 2; i++) gc({ type: "major", execution: "sync", flavor: "last-resort" });
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/**
 * How many more of a kind may stay open than with nobody in: no handle; a timer or two
 * of this thread's (one is seen to stay), where one left per visitor or world would be
 * some twenty.
 */
const slack = (kind: string) => (kind === "Timeout" ? 2 : 0);

/** Open resources (handles, requests, timers), by kind. */
function resources(): Record<string, number> {
  const count: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) count[kind] = (count[kind] ?? 0) + 1;
  return count;
}

describe("parley web --demo, once its visitors have left", () => {
  let api: RunningServer;
  let web: WebServer;
  const worldsMade: WeakRef<RunningServer>[] = [];
  const start = async (options: StartOptions) => {
    const world = await startServer(options);
    worldsMade.push(new WeakRef(world));
    return world;
  };
  const worlds = demoWorlds({ start, log: () => {} });

  beforeAll(async () => {
    api = await startServer({ demo: true, demoReplies: false });
    web = await startWebServer({
      assets: PAGE,
      access: { kind: "demo", url: api.url, users: api.demoUsers, world: worlds.enter },
      maxSessionsPerAddress: AT_ONCE,
    });
  }, 30_000);

  afterAll(async () => {
    await web?.close();
    await worlds.close();
    await api?.close();
  });

  /** AT_ONCE visitors in, each shown their first frame, then all gone with their worlds. */
  async function joinAndLeave(): Promise<void> {
    const sockets = Array.from(
      { length: AT_ONCE },
      () =>
        new WebSocket(`ws://127.0.0.1:${web.port}/session`, {
          origin: `http://127.0.0.1:${web.port}`,
        }),
    );
    const drawn = sockets.map(
      (socket) => new Promise<void>((resolve) => socket.once("message", () => resolve())),
    );
    for (const socket of sockets) {
      await once(socket, "open");
      socket.send(JSON.stringify({ type: "hello", columns: 100, rows: 30, theme: "dark" }));
    }
    await Promise.all(drawn);
    expect(worlds.size()).toBe(AT_ONCE);
    for (const socket of sockets) socket.close();
    await until(() => web.liveSessions() === 0 && worlds.size() === 0, "everyone gone");
  }

  /**
   * At most one world still reachable after full GCs. A WeakRef's target stays for the rest of the
   * task that read it, so a world read here can go at the next call, in another task.
   */
  let kept = 0;
  function fewKept(): boolean {
    settledHeap();
    kept = worldsMade.filter((world) => world.deref() !== undefined).length;
    return kept <= 1;
  }

  it("keeps no world, session, handle or timer of theirs", async () => {
    // What is open with nobody in: the servers' own (read as the wait below reads it,
    // beside the wait's own timers).
    const idle = await until(() => resources(), "the handles with nobody in");
    // The first visitors compile the client and fill this thread's caches: not counted.
    await joinAndLeave();
    const detail = () => `${kept} of ${worldsMade.length} worlds kept`;
    await until(fewKept, "the first worlds collected", { detail });
    const before = settledHeap();

    for (let i = 0; i < CYCLES; i++) await joinAndLeave();

    await until(fewKept, "the worlds collected", { detail });
    expect(worldsMade).toHaveLength((CYCLES + 1) * AT_ONCE);
    let open: Record<string, number> = {};
    await until(
      () => {
        open = resources();
        return Object.entries(open).every(([kind, n]) => n <= (idle[kind] ?? 0) + slack(kind));
      },
      "no more handles and timers open than with nobody in",
      { detail: () => `with nobody in ${JSON.stringify(idle)}, then ${JSON.stringify(open)}` },
    );
    const grown = settledHeap() - before;
    expect(grown).toBeLessThan(HEAP_BOUND_MB);
  }, 120_000);
});
