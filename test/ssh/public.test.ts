// `parley ssh` facing people it does not know: the built CLI, ssh2 clients doing what an
// attacker would. Each limit from "Running parley ssh in public" in the README is here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BuiltSsh,
  built,
  connect,
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
});
