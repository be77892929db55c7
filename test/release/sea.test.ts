// The single executable (`npm run dist`, scripts/sea.ts), run as a machine without Node
// would: PATH without node, fresh folders. `npm run dist` builds it and then runs this
// file; in `npm test` there is no dist/sea/parley (the build cleans dist/), so it skips.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/server/store/sqlite/migrations.ts";
import { hasTmux, type Pane, ROOT, startPane } from "../e2e/tmux.ts";

const EXE = join(ROOT, "dist", "sea", "parley");
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const home = mkdtempSync(join(tmpdir(), "parley-sea-"));
// The executable's folder and the system's tools (tmux, ssh); no Node of parley's.
const env = {
  PATH: `${join(ROOT, "dist", "sea")}:/usr/bin:/bin`,
  HOME: home,
  LANG: "C.UTF-8",
  TERM: "xterm-256color",
  XDG_CONFIG_HOME: join(home, "config"),
  XDG_DATA_HOME: join(home, "data"),
  XDG_STATE_HOME: join(home, "state"),
  XDG_CACHE_HOME: join(home, "cache"),
};
const children: ChildProcess[] = [];
const panes: Pane[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const pane of panes) pane.kill();
  rmSync(home, { recursive: true, force: true });
});

async function firstLines(child: ChildProcess, count: number): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    lines.push(line);
    if (lines.length === count) break;
  }
  return lines;
}

describe.skipIf(!existsSync(EXE))("the single executable", () => {
  // A node on /usr/bin (Debian's 20, say) is one parley refuses: the executable runs its own.
  it("--version", () => {
    expect(execFileSync(EXE, ["--version"], { env, encoding: "utf8" })).toBe(
      `parley ${version} (database schema ${MIGRATIONS.length})\n`,
    );
  });

  it("serve answers the API", async () => {
    const child = spawn(EXE, ["serve", "--port", "0", "--db", ":memory:", "--demo"], { env });
    children.push(child);
    const [address, alice] = await firstLines(child, 2);
    const url = address!.replace("export PARLEY_BASE_URL=", "");
    const token = /PARLEY_TOKEN=(\S+)/.exec(alice!)![1];
    const response = await fetch(`${url}/v1/conversations`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });

  it.skipIf(!hasTmux())("the client shows its first frame in a terminal", async () => {
    const pane = startPane({ command: "parley", home, env });
    panes.push(pane);
    await pane.waitFor((s) => s.includes("#team"), "the conversation list", 20_000);
    pane.send("q");
    await pane.waitFor((s) => s.includes("EXITED=0"), "parley to quit");
  });

  it.skipIf(!hasTmux() || spawnSync("ssh", ["-V"]).status !== 0)(
    "parley ssh draws a session on a worker thread",
    async () => {
      const key = join(home, "id");
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]);
      const child = spawn(
        EXE,
        ["ssh", "--port", "0", "--db", ":memory:", "--demo", "--threads", "1"],
        {
          env,
        },
      );
      children.push(child);
      const log: string[] = [];
      createInterface({ input: child.stderr! }).on("line", (line) => log.push(line));
      const [listening] = await firstLines(child, 1);
      const port = /port (\d+)/.exec(listening!)![1];
      const pane = startPane({
        command: `ssh -tt -F /dev/null -i ${key} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p ${port} alice@127.0.0.1`,
        home,
        env,
      });
      panes.push(pane);
      await pane.waitFor((s) => s.includes("#team"), "the session's conversation list", 20_000);
      // The session's client runs on a worker thread (named so by Node) of the executable.
      const threads = execFileSync("ps", ["-L", "-o", "comm=", "-p", String(child.pid)], {
        encoding: "utf8",
      });
      expect(threads, log.join("\n")).toMatch(/^WorkerThread$/m);
      pane.send("q");
      await pane.waitFor((s) => s.includes("EXITED=0"), "the ssh session to end");
    },
  );
});
