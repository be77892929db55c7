// docs/team.md's "Start a server and add people", run: every `parley` command of its sh blocks,
// in order, with the built CLI, against temporary databases (the section's PostgreSQL URL
// becomes a SQLite file: the commands are the same on both), on loopback and free ports.
// Servers (`parley serve`, `parley ssh`) keep running while the commands after them run,
// as the section says they may, and are stopped at the end, each expected to exit 0.

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { docCommands, firstLine, operatorEnv } from "./operator.ts";

const commands = docCommands("team.md", "Start a server and add people").flat();

const home = mkdtempSync(join(tmpdir(), "parley-team-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

/** What the section's commands meet on a real machine, made local and temporary. */
function localized(line: string): string {
  return line
    .replaceAll("postgres://parley:secret@db.internal:5432/parley", join(home, "team.db"))
    .replace(/--host 0\.0\.0\.0/, "--host 127.0.0.1")
    .replace(/--port \d+/, "--port 0");
}

describe("docs/team.md's Start a server and add people", () => {
  it("has parley commands to run", () => {
    expect(commands.filter((c) => c.startsWith("parley ")).length).toBeGreaterThan(8);
    // Anything else in its sh blocks is an environment variable.
    for (const line of commands) expect(line).toMatch(/^(parley |export [A-Z_]+=)/);
  });

  it("runs every command, in order, as an operator would", async () => {
    const key = newHostKey();
    // As the doc's keys file: each key names the one user it signs in as.
    writeFileSync(join(home, "authorized_keys"), `parley-user="alice" ${key.public}\n`);
    const env = operatorEnv(home);
    const outputs = new Map<string, string[]>();
    const servers: { line: string; child: ChildProcess; url?: string }[] = [];

    for (const command of commands) {
      const exported = /^export ([A-Z_]+)=(.*)$/.exec(command);
      if (exported) {
        env[exported[1]!] = localized(exported[2]!);
        continue;
      }
      const line = localized(command);
      if (/^parley (serve|ssh) /.test(line)) {
        const child = spawn("bash", ["-c", `exec ${line}`], {
          cwd: home,
          env,
          stdio: ["ignore", "pipe", "inherit"],
        });
        children.push(child);
        const first = await firstLine(child, line);
        servers.push({ line, child, url: /^export PARLEY_BASE_URL=(\S+)/.exec(first)?.[1] });
        continue;
      }
      const result = spawnSync("bash", ["-c", line], { cwd: home, env, encoding: "utf8" });
      // `parley users` and `groups` say what they did on stderr, in one line or two; the
      // servers nothing at all. Never a stack trace.
      if (/^parley (users|groups) /.test(line)) expect(result.stderr, line).not.toMatch(/^\s+at /m);
      else expect(result.stderr, line).toBe("");
      expect(result.status, line).toBe(0);
      outputs.set(command, result.stdout.trimEnd().split("\n"));
    }

    // What the commands did, seen through the first server: alice signs in with the token
    // she was given; bob, removed at the end, cannot, and is no longer anyone's contact.
    const url = servers[0]!.url!;
    const alice = outputs.get("parley users add alice")!.at(-1)!;
    const asAlice = await fetch(`${url}/v1/contacts`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(asAlice.status).toBe(200);
    expect(await asAlice.json()).toEqual({ data: [], has_more: false });
    const bob = outputs.get("parley users token bob")!.at(-1)!;
    expect(
      (await fetch(`${url}/v1/contacts`, { headers: { authorization: `Bearer ${bob}` } })).status,
    ).toBe(401);
    expect(outputs.get("parley users list")!.join("\n")).toMatch(/alice\s+ct_alice/);

    for (const { line, child } of servers) {
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited, line).toBe(0);
    }
    expect(readFileSync(join(home, "parley.log"), "utf8")).toContain("listening on");
  }, 120_000);
});
