// docs/team.md's commands, run with the built CLI as an operator would, in order, on a
// temporary SQLite database (PARLEY_DATABASE_URL): servers (`parley serve`) keep running
// while the commands after them run and are stopped at the end, each expected to exit 0.
// The backups' blocks are run by test/server/backups.test.ts (they need the server
// stopped and, for PostgreSQL, a cluster).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { installParley } from "./operator.ts";

const doc = readFileSync(new URL("../../docs/team.md", import.meta.url), "utf8");
const sections = doc.split(/^## /m).slice(1);
/** The sections whose commands are all `parley` commands this test can run in order. */
const RUN = ["The database", "Health checks and metrics", "The log", "People, tokens"];
const commands = sections
  .filter((s) => RUN.some((title) => s.startsWith(title)))
  .flatMap((s) => [...s.matchAll(/```sh\n([\s\S]*?)```/g)])
  .flatMap((block) =>
    block[1]!
      .split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter((line) => line !== ""),
  );

const home = mkdtempSync(join(tmpdir(), "parley-team-doc-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

describe("docs/team.md's commands", () => {
  it("are parley commands", () => {
    expect(commands.length).toBeGreaterThan(6);
    for (const line of commands) expect(line).toMatch(/^parley /);
  });

  it("run, in order, as an operator would", async () => {
    const bin = installParley(home);
    const env: NodeJS.ProcessEnv = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      XDG_DATA_HOME: join(home, "data"),
      XDG_STATE_HOME: join(home, "state"),
      PARLEY_DATABASE_URL: join(home, "team.db"),
    };
    const run = (line: string) =>
      spawnSync("bash", ["-c", line], { cwd: home, env, encoding: "utf8" });
    const servers: ChildProcess[] = [];
    let people = false;
    for (const command of commands) {
      if (/^parley serve\b/.test(command)) {
        const line = command.replace(/--metrics 127\.0\.0\.1:\d+/, "--metrics 127.0.0.1:0");
        const child = spawn("bash", ["-c", `exec ${line} --port 0`], {
          cwd: home,
          env,
          stdio: ["ignore", "pipe", "ignore"],
        });
        children.push(child);
        servers.push(child);
        await new Promise((resolve, reject) => {
          createInterface({ input: child.stdout! }).once("line", resolve);
          child.once("exit", (code) => reject(new Error(`${line} exited ${code}`)));
        });
        child.stdout!.resume();
        continue;
      }
      // The people the commands after the first speak of (bob, carol), added as they were.
      if (!people && /^parley users add /.test(command)) {
        for (const name of ["bob", "carol"]) expect(run(`parley users add ${name}`).status).toBe(0);
        people = true;
      }
      const result = run(command);
      expect(result.stderr, command).not.toMatch(/^\s+at /m);
      expect(result.status, `${command}\n${result.stderr}`).toBe(0);
    }
    // What they did: two named tokens made, the phone's revoked; bob removed; carol out of eng.
    expect(readFileSync(join(home, "alice-laptop.token"), "utf8")).toMatch(/^prly_\S+\n$/);
    expect(readFileSync(join(home, "alice-phone.token"), "utf8")).toMatch(/^prly_\S+\n$/);
    expect(run("parley users tokens alice").stdout).toMatch(/^laptop\s/m);
    expect(run("parley users tokens alice").stdout).not.toMatch(/^phone\s/m);
    expect(run("parley users list").stdout).toMatch(/^bob\s+ct_bob\s+0\s.*removed$/m);
    expect(run("parley groups list").stdout).toMatch(/^eng\s+grp_eng\s+alice$/m);
    for (const child of servers) {
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  }, 120_000);
});
