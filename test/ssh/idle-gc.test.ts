// A `parley ssh` thread gives its heap back once its last session has left: the host says
// when it has none left (and only then), and a memory-reducing GC follows while nobody
// has come back. How much that gives back is measured in `npm run bench`, not here.

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { createSessionHost, type FromHost } from "../../src/ssh/host.ts";
import { exposedGc, giveBackWhenIdle, IDLE_GC_MS } from "../../src/ssh/idle-gc.ts";
import { pause, until } from "../wait.ts";

let api: RunningServer;

beforeAll(async () => {
  api = await startServer({ port: 0, demo: true, demoReplies: false });
});

afterAll(async () => {
  await api?.close();
});

describe("a session host", () => {
  it("says it is idle once its last session has ended, not before", async () => {
    let idle = 0;
    const messages: FromHost[] = [];
    const host = createSessionHost(
      (message) => messages.push(message),
      () => idle++,
    );
    const drawn = (id: number) =>
      messages
        .filter((m) => m.type === "output" && m.id === id)
        .map((m) => (m.type === "output" ? m.data : ""))
        .join("");
    const ended = (id: number) => messages.some((m) => m.type === "done" && m.id === id);
    for (const [id, username] of [
      [1, "alice"],
      [2, "bob"],
    ] as const) {
      host.handle({
        type: "open",
        id,
        username,
        token: api.demoUsers.find((u) => u.username === username)!.token,
        apiUrl: api.url,
        columns: 100,
        rows: 30,
        // A theme of its own: no question to the terminal about its background.
        env: { TERM: "xterm-256color", PARLEY_THEME: "dark" },
      });
    }
    await until(() => drawn(1).includes("online") && drawn(2).includes("online"), "two screens");
    expect(host.size()).toBe(2);

    host.handle({ type: "drop", id: 1 });
    await until(() => ended(1), "the first session's end");
    expect(host.size()).toBe(1);
    expect(idle).toBe(0);

    host.handle({ type: "drop", id: 2 });
    await until(() => ended(2), "the second session's end");
    expect(host.size()).toBe(0);
    expect(idle).toBe(1);
  }, 30_000);
});

describe("giving the heap back when idle", () => {
  it("collects at each delay while nobody came back, and not once someone has", () => {
    vi.useFakeTimers();
    try {
      let nobody = true;
      const gc = vi.fn();
      const onIdle = giveBackWhenIdle(() => nobody, { gc, delays: [500, 5000] });
      onIdle();
      vi.advanceTimersByTime(500);
      expect(gc).toHaveBeenCalledTimes(1);
      expect(gc).toHaveBeenCalledWith({ type: "major", execution: "sync", flavor: "last-resort" });
      nobody = false;
      vi.advanceTimersByTime(5000);
      expect(gc).toHaveBeenCalledTimes(1);
      // Idle again: a fresh round, the earlier one's timers gone.
      nobody = true;
      onIdle();
      onIdle();
      vi.advanceTimersByTime(5000);
      expect(gc).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reaches V8's own gc without putting one on the global object", async () => {
    expect(IDLE_GC_MS[0]).toBeLessThan(1000);
    const hadGc = "gc" in globalThis;
    const gc = exposedGc();
    expect("gc" in globalThis).toBe(hadGc);
    let target: object | undefined = { big: new Array(1000).fill("x") };
    const ref = new WeakRef(target);
    target = undefined;
    // A WeakRef's target lives to the end of the job that made it.
    await pause(0);
    gc({ type: "major", execution: "sync", flavor: "last-resort" });
    expect(ref.deref()).toBeUndefined();
  });
});
