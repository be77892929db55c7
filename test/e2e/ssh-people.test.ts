// `parley ssh` without --demo lets in the people of its database: those `parley users add`
// made before it started and while it runs, and nobody else.
import { type ChildProcess, execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { startBuilt } from "../built.ts";
import { until } from "../wait.ts";
import { CLI, hasTmux, type Pane, startPane } from "./tmux.ts";

const skip = !hasTmux() || spawnSync("ssh-keygen", ["-?"], { stdio: "ignore" }).error !== undefined;

const dir = mkdtempSync(join(tmpdir(), "parley-ssh-people-"));
const env = { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, "data") };
const children: ChildProcess[] = [];
const panes: Pane[] = [];
afterAll(() => {
  for (const p of panes) p.kill();
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const parley = (...args: string[]) =>
  execFileSync(process.execPath, [CLI, ...args], { env, encoding: "utf8" });

describe.skipIf(skip)("parley ssh on a database of people", () => {
  it("lets in whoever parley users has added, also while it runs", async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
    const db = join(dir, "team.db");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "id")]);
    // One key, listed for each of them (a key signs in only as the users its lines name).
    const key = execFileSync("cat", [join(dir, "id.pub")], { encoding: "utf8" }).trim();
    writeFileSync(
      join(dir, "keys"),
      ["bob", "carol", "dave"].map((name) => `parley-user="${name}" ${key}`).join("\n"),
    );
    // Only a server makes a database: one started and stopped makes it empty.
    await (await startServer({ db })).close();
    parley("users", "add", "bob", "--db", db);

    const { child, banner, log } = await startBuilt(
      ["ssh", "--port", "0", "--db", db, "--authorized-keys", join(dir, "keys")],
      { home: dir, ready: (line) => line.startsWith("keys from") },
    );
    children.push(child);
    const port = /port (\d+)/.exec(banner[0]!)![1]!;
    expect(banner).toContain(`ssh -p ${port} bob@127.0.0.1`);
    parley("users", "add", "carol", "--db", db);

    const connect = (user: string) => {
      const p = startPane({
        command: [
          "ssh -tt -F /dev/null",
          `-i ${JSON.stringify(join(dir, "id"))} -o IdentitiesOnly=yes`,
          "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR",
          `-p ${port} ${user}@127.0.0.1`,
        ].join(" "),
        columns: 100,
        rows: 30,
      });
      panes.push(p);
      return p;
    };
    // carol, added after the start, is in within a few seconds (the list is read again).
    // Refused until parley ssh has read the list again: connect again until let in.
    const carol = await until(
      async () => {
        const pane = connect("carol");
        const screen = await pane.waitFor(
          (s) => s.includes("parley · carol") || s.includes("EXITED="),
          "an answer",
          15_000,
        );
        return screen.includes("parley · carol") ? pane : undefined;
      },
      "carol let in",
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    await carol.waitFor((s) => s.includes("No conversations"), "carol's empty list", 15_000);
    const dave = connect("dave");
    await dave.waitFor((s) => s.includes('no user "dave" here'), "dave refused", 15_000);

    // carol is removed while her session is open: it ends, she is told why, it is logged,
    // and her key no longer signs in.
    const removed = spawnSync(process.execPath, [CLI, "users", "remove", "carol", "--db", db], {
      env,
      encoding: "utf8",
    });
    expect(removed.status, removed.stderr).toBe(0);
    await carol!.waitFor(
      (s) => s.includes("your access to this server was removed"),
      "carol's session ended",
      20_000,
    );
    await until(
      () => log.some((l) => l.includes('ended 1 session of "carol": removed')),
      "the log line",
    );
    const again = connect("carol");
    await again.waitFor((s) => s.includes('no user "carol" here'), "carol refused", 15_000);
  }, 90_000);
});
