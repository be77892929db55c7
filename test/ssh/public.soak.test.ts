// `parley ssh` against a client that asks for absurd sizes or stops reading: the built
// CLI (and a server in this process), ssh2 clients. Each draws screens of up to 1000x500
// cells for half a minute, or waits out the time a stuck client is allowed, so they are
// soaks (`npm run test:soak`); the other limits are in public.test.ts.
import { describe, expect, it } from "vitest";
import { RESIZE_EVERY_MS } from "../../src/ssh/sessions.ts";
import { pause, until } from "../wait.ts";
import { built, builtSshForFile, connect, rssMiB, shell, typeIntoComposer } from "./built.ts";
import { startInProcessSsh } from "./visit.ts";

// One worker: every session below shares it, so one taking it down would show.
// One shared world, as these were written for: the log's last line is the sessions'.
const demo = builtSshForFile(["--demo", "shared", "--threads", "1"]);

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
    // Every window change is a whole new 1000x500 frame for a client that reads none (600 at
    // once are coalesced into one or two: see flood.test.ts), so they come spaced out.
    await resizeUntilSkipped(paused.channel, demo.server.log, 999);
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

/**
 * `user`'s 1000x500 session, once its first screen is in, reading nothing more while its
 * window changes 20 times, until parley ssh says it is not reading. Each change is a whole
 * frame: more than the client's window and the limit together.
 */
async function stopReading(
  ssh: { port: number },
  log: readonly string[],
  user: string,
): Promise<{ client: Awaited<ReturnType<typeof connect>>; s: Awaited<ReturnType<typeof shell>> }> {
  const client = await connect(ssh.port, user);
  const s = await shell(client, { term: "xterm-256color", cols: 1000, rows: 500 });
  await s.waitFor("online", `${user}'s first screen`);
  s.channel.pause();
  await resizeUntilSkipped(s.channel, log, 1000);
  return { client, s };
}

/**
 * Window changes a little further apart than parley ssh draws them (it coalesces those that
 * come faster), each a whole frame the stopped client does not read, until parley ssh says
 * it skips the client's frames.
 */
async function resizeUntilSkipped(
  channel: { setWindow(rows: number, cols: number, height: number, width: number): void },
  log: readonly string[],
  cols: number,
): Promise<void> {
  for (let i = 0; i < 200 && !log.some((l) => l.includes("is not reading")); i++) {
    channel.setWindow(i % 2 ? 500 : 499, i % 2 ? 1000 : cols, 0, 0);
    await pause(RESIZE_EVERY_MS + 30);
  }
  await until(() => log.some((l) => l.includes("is not reading")), "frames skipped");
}

describe("a client stuck without reading", () => {
  it("is dropped once it has read nothing for the time allowed", async () => {
    const { ssh, log, close } = await startInProcessSsh({ stuckMs: 1000 });
    try {
      await stopReading(ssh, log, "erin");
      await until(() => log.some((l) => l.includes("read none of its screen")), "the drop");
      await until(() => ssh.liveSessions() === 0, "the session freed");
    } finally {
      await close();
    }
  }, 60_000);

  it("has its whole screen drawn again once it reads", async () => {
    const { ssh, log, close } = await startInProcessSsh();
    try {
      const { client: frank, s } = await stopReading(ssh, log, "frank");
      // What was drawn since the last clear screen (the chunks may split it anywhere).
      let tail = "";
      s.channel.on("data", (chunk: Buffer) => {
        tail = (tail + chunk.toString("latin1")).slice(-4_000_000);
        const clear = tail.lastIndexOf("\x1b[2J");
        if (clear >= 0) tail = tail.slice(clear);
      });
      s.channel.resume();
      await until(() => log.some((l) => l.includes("reads again")), "the client reading again");
      // The last screen it is sent starts from a clear screen and is whole (frames were
      // skipped, so a redraw of only what changed would leave it blank).
      await until(
        () => tail.startsWith("\x1b[2J") && tail.includes("online"),
        "frank's whole screen again",
      );
      expect(ssh.liveSessions()).toBe(1);
      frank.end();
    } finally {
      await close();
    }
  }, 60_000);
});
