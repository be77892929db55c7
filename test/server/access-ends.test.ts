// Offboarding at once (issue 38): `parley users remove bob` ends bob's open event stream on
// `parley serve` and his `parley ssh` session, both running, told by the event the removal
// appends (NOTIFY on PostgreSQL, the data_version look on SQLite: the CLI is another
// process), each with one log line. `users revoke` ends the stream of the revoked token
// alone. The built CLI, on SQLite and on PostgreSQL.
import { type ChildProcess, execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { CLI, startBuilt } from "../built.ts";
import { built, connect, shell } from "../ssh/built.ts";
import { until } from "../wait.ts";
import { openEvents } from "./sse.ts";
import { madeDb, STORE } from "./stores.ts";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "parley-access-"));
const env = {
  ...process.env,
  HOME: dir,
  XDG_DATA_HOME: join(dir, "data"),
  XDG_STATE_HOME: join(dir, "state"),
};
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** The built CLI, without blocking this process (its streams go on being read meanwhile). */
const parley = async (...args: string[]) =>
  (await run(process.execPath, [CLI, ...args], { env, encoding: "utf8" })).stdout.trim();

/** A built server's first stdout lines until `done` says enough, and its log (stderr). */
async function start(args: string[], done: (line: string) => boolean) {
  const server = await startBuilt(args, { home: dir, ready: done });
  children.push(server.child);
  return { out: server.banner, log: server.log };
}

describe.skipIf(!built)(`access ends at once (${STORE})`, () => {
  it("users remove ends the person's stream and ssh session, each logged", async () => {
    const db = await madeDb(join(dir, "team.db"));
    const bob = await parley("users", "add", "bob", "--db", db);
    const bobPhone = await parley("users", "token", "bob", "--token-name", "phone", "--db", db);
    const key = newHostKey();
    writeFileSync(join(dir, "keys"), `parley-user="bob" ${key.public}\n`);

    const serve = await start(["serve", "--port", "0", "--db", db], (l) => l.includes("BASE_URL"));
    const url = /PARLEY_BASE_URL=(\S+)/.exec(serve.out[0]!)![1]!;
    const ssh = await start(
      ["ssh", "--port", "0", "--db", db, "--authorized-keys", join(dir, "keys")],
      (l) => l.startsWith("keys from"),
    );
    const port = Number(/port (\d+)/.exec(ssh.out[0]!)![1]);

    // Revoking one token ends the stream it opened, not the other's.
    const onLaptop = await openEvents(url, bob);
    const onPhone = await openEvents(url, bobPhone);
    expect([onLaptop.status, onPhone.status]).toEqual([200, 200]);
    await parley("users", "revoke", "bob", "--token-name", "phone", "--db", db);
    await until(() => onPhone.ended, "the phone's stream ended");
    await until(
      () => serve.log.some((l) => l.includes('ended 1 event stream of "bob": token revoked')),
      "the revoke's log line",
    );
    expect(onLaptop.ended).toBe(false);

    const session = await shell(await connect(port, "bob", { privateKey: key.private }));
    await session.waitFor("No conversations", "bob's empty list");

    await parley("users", "remove", "bob", "--db", db);
    const removed = Date.now();
    await until(() => onLaptop.ended, "bob's stream ended");
    const streamMs = Date.now() - removed;
    await session.closed;
    const sessionMs = Date.now() - removed;
    // What the issue asked for, reported rather than asserted (the machine is shared).
    console.info(
      `${STORE}: stream ended ${streamMs} ms, ssh session ${sessionMs} ms after users remove exited`,
    );
    expect(session.text()).toContain("your access to this server was removed");
    await until(
      () => serve.log.some((l) => l.includes('ended 1 event stream of "bob": removed')),
      "parley serve's log line",
    );
    await until(
      () => ssh.log.some((l) => l.includes('parley ssh: ended 1 session of "bob": removed')),
      "parley ssh's log line",
    );
    // One line per person ended, in each: ssh's own streams are its sessions', not logged twice.
    expect(serve.log.filter((l) => l.includes("ended ")).length).toBe(2);
    expect(
      ssh.log.filter((l) => l.includes("ended ")),
      ssh.log.join("\n"),
    ).toHaveLength(1);
    const again = await shell(await connect(port, "bob", { privateKey: key.private }));
    await again.waitFor('no user "bob" here', "bob refused");
  }, 60_000);
});
