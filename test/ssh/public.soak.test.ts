import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BuiltSsh,
  built,
  connect,
  rssMiB,
  shell,
  startBuiltSsh,
  typeIntoComposer,
  until,
} from "./built.ts";

let server: BuiltSsh;

beforeAll(async () => {
  if (!built) return;
  // One worker: every session below shares it, so one taking it down would show.
  server = await startBuiltSsh(["--demo", "--threads", "1"]);
}, 30_000);

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

describe.skipIf(!built)("parley ssh in public", () => {
  it("takes an absurd pty or window size as the largest it draws, and nobody else notices", async () => {
    const alice = await connect(server.port, "alice");
    const calm = await shell(alice);
    await calm.waitFor("online", "alice's list");

    const bob = await connect(server.port, "bob");
    const huge = await shell(bob, { term: "xterm-256color", cols: 100_000, rows: 100_000 });
    await huge.waitFor("online", "bob's 1000x500 list", 60_000);
    huge.channel.setWindow(0, 0, 0, 0);
    huge.channel.setWindow(100_000, 100_000, 0, 0);
    huge.channel.setWindow(2 ** 31, 2 ** 31, 0, 0);

    // alice, on the same worker, still types and sees it.
    await typeIntoComposer(calm, "still here");
    expect(server.log.join("\n")).not.toMatch(/failed|worker/);
    bob.end();
    alice.end();
    await until(() => server.log.at(-1)?.endsWith("; 0 live sessions") === true, "0 sessions");
  }, 120_000);

  it("skips frames for a client that stops reading: the server does not hold them", async () => {
    const before = rssMiB(server.child.pid!);
    const carol = await connect(server.port, "carol");
    const paused = await shell(carol, { term: "xterm-256color", cols: 2000, rows: 2000 });
    await paused.waitFor("online", "carol's first screen", 60_000);
    paused.channel.pause();
    // Every window change is a whole new 1000x500 frame for a client that reads none.
    for (let i = 0; i < 600; i++) {
      paused.channel.setWindow(i % 2 ? 500 : 499, i % 2 ? 1000 : 999, 0, 0);
    }
    await until(() => server.log.some((l) => l.includes("is not reading")), "frames skipped");
    // dave's session is drawn on the same worker after carol's window changes.
    const dave = await connect(server.port, "dave");
    const other = await shell(dave);
    // Behind carol's 600 frames on the one worker: slow on a busy machine.
    await typeIntoComposer(other, "typing past a stuck neighbour", 240_000);
    const grown = rssMiB(server.child.pid!) - before;
    // Unbounded, 600 frames of 1000x500 held about 300 MiB (a 2000x2000 pty, before sizes
    // were clamped: gigabytes); bounded, a few frames' worth and dave's client.
    expect(grown, `server RSS grew ${grown.toFixed(0)} MiB`).toBeLessThan(200);

    carol.end();
    dave.end();
    await until(() => server.log.at(-1)?.endsWith("; 0 live sessions") === true, "0 sessions");
  }, 300_000);
});
