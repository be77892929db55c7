// The conventions of a command-line tool, on the built CLI (dist/cli.js): help anywhere,
// one clear line for expected failures, quiet closed pipes, private files, the Node gate,
// and a normal exit that writes nothing to stderr.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/server/store/sqlite/migrations.ts";
import { pause, until } from "../wait.ts";
import { OLD_NODE } from "./old-node.ts";
import { CLI, hasTmux, type Pane, ROOT, startPane } from "./tmux.ts";

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
/** What `parley --version` prints: the version and the database schema it makes. */
const VERSION_LINE = `parley ${version} (database schema ${MIGRATIONS.length})\n`;

const run = (args: string[], options: { env?: NodeJS.ProcessEnv; node?: string } = {}) =>
  spawnSync(options.node ?? process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    timeout: 15_000,
  });

const temps: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-conv-"));
  temps.push(dir);
  return dir;
};
const children: ChildProcess[] = [];
let pane: Pane | undefined;
afterEach(() => {
  pane?.kill();
  pane = undefined;
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("--help and -h", () => {
  it.each([
    [["--base-url", "http://x", "--help"], "parley: a full-screen terminal chat client"],
    [["serve", "--port", "1", "-h"], "parley serve"],
    [["ssh", "--bogus", "--help"], "parley ssh"],
    [["help", "serve"], "parley serve"],
  ])("anywhere: parley %j prints that command's help", (args, title) => {
    const result = run(args);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout.split("\n")[0]).toBe(title);
  });

  it("puts the command's own options first", () => {
    const out = run(["serve", "--help"]).stdout;
    expect(out.indexOf("Server options")).toBeLessThan(out.indexOf("Client options"));
    expect(out.indexOf("Server options")).toBeLessThan(out.indexOf("SSH options"));
  });
});

describe("a closed pipe", () => {
  it("ends --help quietly: no stack trace", () => {
    const result = spawnSync("bash", ["-c", `"${process.execPath}" "${CLI}" --help | true`], {
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("leaves `serve` serving when its stdout goes away", async () => {
    const child = spawn(
      process.execPath,
      [CLI, "serve", "--demo", "--port", "0", "--db", ":memory:"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    children.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
    });
    // Like `| head -1`: read the first line, then close the pipe.
    const first: string = await new Promise((resolve) =>
      createInterface({ input: child.stdout! }).once("line", resolve),
    );
    child.stdout!.destroy();
    const url = first.replace("export PARLEY_BASE_URL=", "");
    await pause(300); // it must not die of the closed pipe meanwhile
    const response = await fetch(`${url}/v1/conversations`);
    expect(response.status).toBe(401); // serving: it asks for a token
    expect(child.exitCode).toBeNull();
    expect(stderr).not.toMatch(/EPIPE|at .*\.js/);
  });
});

function notADatabase(): string {
  const file = join(temp(), "notes.db");
  writeFileSync(file, "not a database, a note\n");
  return file;
}

describe("an unopenable database", () => {
  it.each([
    ["a folder", () => temp()],
    ["under a file", () => join(CLI, "server.db")],
    ["not a database", () => notADatabase()],
    // A read there may wait for ever (a terminal's fd): refused before any.
    ["under /proc", () => "/proc/self/fd/0"],
    ["a file of /proc", () => "/proc/1/status"],
  ])("(%s) is one line naming the path", (_, path) => {
    const db = path();
    const result = run(["serve", "--port", "0", "--db", db]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(`parley: Cannot open the database ${db}`);
  });
});

describe("a database an operator cannot use", () => {
  const oneLine = (result: ReturnType<typeof run>) => {
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).not.toMatch(/\bat .*:\d+:\d+/); // a stack frame: file:line:column
    return lines[0]!;
  };

  it("of a newer schema than this parley knows is one line", async () => {
    const db = join(temp(), "newer.db");
    const { DatabaseSync } = await import("node:sqlite");
    const raw = new DatabaseSync(db);
    raw.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    raw.exec("INSERT INTO schema_version VALUES (999)");
    raw.close();
    for (const args of [
      ["serve", "--port", "0"],
      ["users", "list"],
    ]) {
      expect(oneLine(run([...args, "--db", db]))).toMatch(/schema version 999, newer than/);
    }
  });

  it("that is not a database is one line naming the path", () => {
    const db = join(temp(), "notes.txt");
    writeFileSync(db, "not a database, just some text that is long enough\n".repeat(40));
    expect(oneLine(run(["serve", "--port", "0", "--db", db]))).toContain(
      `Cannot open the database ${db}`,
    );
  });

  it("a PostgreSQL that refuses the connection is one line, without the password", () => {
    const url = "postgres://parley:secret@127.0.0.1:1/parley";
    for (const args of [
      ["serve", "--port", "0"],
      ["users", "list"],
    ]) {
      const line = oneLine(run([...args, "--db", url]));
      expect(line).toMatch(
        /^parley: Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/parley: .*ECONNREFUSED/,
      );
      expect(line).not.toContain("secret");
    }
  });
});

describe("usage errors", () => {
  it.each([
    [["serve", "--prot"], "parley serve --help"],
    [["ssh", "--threads", "9"], "parley ssh --help"],
    [["users", "add", "Not A Name"], "parley users --help"],
    [["--bogus"], "parley --help"],
  ])("parley %j exits 2 with one line and the command's own help", (args, hint) => {
    const result = run(args);
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`Try "${hint}".`);
  });

  it("--threads is 0 to 8", () => {
    expect(run(["ssh", "--threads", "9"]).stderr).toMatch(/--threads must be a number from 1 to 8/);
  });

  it("--max-upload and --upload-quota take a size", () => {
    const bad = run(["serve", "--max-upload", "lots"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /^parley: --max-upload must be a size such as 25MB or 1GB \(0: none\), not "lots"\./,
    );
    expect(run(["serve", "--upload-quota", "0"]).stderr).toMatch(/--upload-quota must be a size/);
  });
});

describe("files with tokens and messages", () => {
  it("a new database is 0600 in a new 0700 folder", async () => {
    const dir = join(temp(), "new", "folder");
    const db = join(dir, "server.db");
    const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--db", db, "--demo"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    children.push(child);
    await new Promise((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of [db, `${db}-wal`, `${db}-shm`]) {
      if (existsSync(file)) expect(statSync(file).mode & 0o777, file).toBe(0o600);
    }
  });
});

describe("the Node version", () => {
  it.skipIf(OLD_NODE === undefined)(
    "an older one is refused in one line that says what to do",
    () => {
      const result = run(["--version"], { node: OLD_NODE });
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/needs Node\.js 22\.16 or newer/);
      // The hint runs the same file on a Node 24 from the npm registry: it works from a
      // clone and from an install alike, where "npx parley-chat" would answer 404.
      expect(lines[0]).toMatch(/npx -y node@24 \S+$/);
      const hint = lines[0]!.replace(/^.*: npx/, "npx");
      const rerun = spawnSync("bash", ["-c", `${hint} --version`], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 60_000,
        // Not the npm_config_* of an npm this test runs under (`npx -c` sets --call).
        env: Object.fromEntries(
          Object.entries(process.env).filter(([k]) => !k.startsWith("npm_config_")),
        ),
      });
      expect(rerun.stdout, rerun.stderr).toBe(VERSION_LINE);
    },
  );

  it("SQLite's experimental warning never shows", async () => {
    // On Node 22, opening node:sqlite warns on stderr; parley hides it (and on 24 there is none).
    const child = spawn(process.execPath, [
      CLI,
      "serve",
      "--port",
      "0",
      "--db",
      join(temp(), "x.db"),
    ]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      // The banner comes once the database is open: any warning would have come by then.
      await until(() => stdout.includes("export PARLEY_BASE_URL="), "the banner", {
        timeoutMs: 30_000,
      });
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    expect(stdout).toMatch(/^export PARLEY_BASE_URL=/);
    expect(stderr).not.toMatch(/ExperimentalWarning|experimental/i);
  });
});

describe.skipIf(!hasTmux())("a normal exit", () => {
  it("writes nothing to stderr, and keeps every file private", async () => {
    const home = temp();
    const log = join(home, "stderr.log");
    writeFileSync(log, "");
    pane = startPane({
      command: `node ${JSON.stringify(CLI)} 2>${JSON.stringify(log)}`,
      home,
      env: { XDG_CACHE_HOME: join(home, "cache") },
    });
    await pane.waitFor((s) => s.includes("#team"), "the conversation list");
    await pause(800); // for warnings that must not come
    pane.send("q");
    await pane.waitFor((s) => s.includes("EXITED=0"), "a normal exit");
    expect(JSON.stringify(readFileSync(log, "utf8"))).toBe('""');
    const files = execFileSync(
      "find",
      [home, "-path", `${log}`, "-prune", "-o", "-printf", "%m %y %p\n"],
      {
        encoding: "utf8",
      },
    )
      .trim()
      .split("\n")
      .filter((line) => line.split(" ")[2] !== home && !line.includes("/config"));
    expect(files.length).toBeGreaterThan(3);
    for (const line of files) {
      const [mode, type] = line.split(" ");
      expect(line).toMatch(type === "d" ? /^700 / : /^600 /);
      expect(mode).toBeDefined();
    }
  });
});
