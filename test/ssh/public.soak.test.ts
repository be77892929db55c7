// `parley ssh` against a client that asks for absurd sizes or stops reading: the built
// CLI, ssh2 clients. Each draws screens of up to 1000x500 cells for half a minute, so they
// are soaks (`npm run test:soak`); the other limits are in public.test.ts.
import { describe, expect, it } from "vitest";
import {
  built,
  builtSshForFile,
  connect,
  rssMiB,
  shell,
  typeIntoComposer,
  until,
} from "./built.ts";

// One worker: every session below shares it, so one taking it down would show.
const demo = builtSshForFile(["--demo", "--threads", "1"]);

describe.skipIf(!built)("parley ssh in public", () => {
  it("takes an absurd pty or window size as the largest it draws, and nobody else notices", async () => {
    const alice = await connect(demo.server.port, "alice");
    const calm = await shell(alice);
    await calm.waitFor("online", "alice's list");

    const bob = await connect(demo.server.port, "bob");
    const huge = await shell(bob, { term: "xterm-256color", cols: 100_000, rows: 100_000 });
    await huge.waitFor("online", "bob's 1000x500 list", 60_000);
    huge.channel.setWindow(0, 0, 0, 0);
    huge.channel.setWindow(100_000, 100_000, 0, 0);
    huge.channel.setWindow(2 ** 31, 2 ** 31, 0, 0);

    // alice, on the same worker, still types and sees it.
    await typeIntoComposer(calm, "still here");
    expect(demo.server.log.join("\n")).not.toMatch(/failed|worker/);
    bob.end();
    alice.end();
    await until(() => demo.server.log.at(-1)?.endsWith("; 0 live sessions") === true, "0 sessions");
  }, 120_000);

  it("skips frames for a client that stops reading: the demo.server does not hold them", async () => {
    const before = rssMiB(demo.server.child.pid!);
    const carol = await connect(demo.server.port, "carol");
    const paused = await shell(carol, { term: "xterm-256color", cols: 2000, rows: 2000 });
    await paused.waitFor("online", "carol's first screen", 60_000);
    paused.channel.pause();
    // Every window change is a whole new 1000x500 frame for a client that reads none.
    for (let i = 0; i < 600; i++) {
      paused.channel.setWindow(i % 2 ? 500 : 499, i % 2 ? 1000 : 999, 0, 0);
    }
    await until(() => demo.server.log.some((l) => l.includes("is not reading")), "frames skipped");
    // dave's session is drawn on the same worker after carol's window changes.
    const dave = await connect(demo.server.port, "dave");
    const other = await shell(dave);
    // Behind carol's 600 frames on the one worker: slow on a busy machine.
    await typeIntoComposer(other, "typing past a stuck neighbour", 240_000);
    const grown = rssMiB(demo.server.child.pid!) - before;
    // Unbounded, 600 frames of 1000x500 held about 300 MiB (a 2000x2000 pty, before sizes
    // were clamped: gigabytes); bounded, a few frames' worth and dave's client.
    expect(grown, `demo.server RSS grew ${grown.toFixed(0)} MiB`).toBeLessThan(200);

    carol.end();
    dave.end();
    await until(() => demo.server.log.at(-1)?.endsWith("; 0 live sessions") === true, "0 sessions");
  }, 300_000);
});
