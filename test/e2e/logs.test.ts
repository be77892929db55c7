// The log of `parley serve` and `parley ssh`, as an operator reads it: every line with a
// time and a level, a start line naming version, schema, store (no credentials) and
// addresses, an access line per request (method, route, status, ms, user; never the
// token), a stop line; --log-format json for a collector; and SIGHUP reopening
// --log-file after logrotate moved it, the server still running. The built CLI.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { until } from "../wait.ts";
import { CLI } from "./tmux.ts";

const home = mkdtempSync(join(tmpdir(), "parley-logs-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
});
const env = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, "data") };
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

/** Starts a server command; resolves with the process and the first line of its banner. */
async function start(args: string[]): Promise<{ child: ChildProcess; first: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const first: string = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}`)));
  });
  child.stdout!.resume();
  return { child, first };
}

const read = (file: string) =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
const TEXT_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (info|warn|error) \S/;

describe("parley serve's log", () => {
  it("has a time and level on every line, start, access and stop lines, and survives SIGHUP", async () => {
    const db = join(home, "team.db");
    const log = join(home, "parley.log");
    const { child, first } = await start(["serve", "--port", "0", "--db", db, "--log-file", log]);
    const url = first.replace("export PARLEY_BASE_URL=", "");
    const added = spawnSync(process.execPath, [CLI, "users", "add", "alice", "--db", db], {
      env,
      encoding: "utf8",
    });
    const token = added.stdout.trim().split("\n").at(-1)!;
    expect(
      (await fetch(`${url}/v1/contacts`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect(
      (
        await fetch(`${url}/v1/conversations/conv_x1`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(404);
    expect((await fetch(`${url}/v1/contacts`)).status).toBe(401);
    await until(() => read(log).length >= 5, "the access lines");
    expect(statSync(log).mode & 0o777).toBe(0o600);

    const lines = read(log);
    for (const line of lines) expect(line).toMatch(TEXT_LINE);
    expect(lines.join("\n")).not.toContain(token);
    const started = lines.find((l) => l.includes("parley serve started"))!;
    expect(started).toContain(`version=${pkg.version}`);
    expect(started).toMatch(/ schema=\d+ /);
    expect(started).toContain(`store=sqlite ${db}`);
    expect(started).toContain(`api=${url}`);
    expect(lines).toContainEqual(
      expect.stringMatching(/ info GET \/v1\/contacts 200 \d+ms alice$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/ info GET \/v1\/conversations\/:id 404 \d+ms alice$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/ info GET \/v1\/contacts 401 \d+ms -$/));

    // logrotate moves the file and sends SIGHUP: the server writes to a new one.
    renameSync(log, `${log}.1`);
    child.kill("SIGHUP");
    await until(() => read(log).some((l) => l.includes("reopened the log file")), "the reopen");
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await until(
      () => read(log).some((l) => / GET \/healthz 200 /.test(l)),
      "a line in the new file",
    );
    expect(read(`${log}.1`).some((l) => l.includes("/healthz"))).toBe(false);

    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(read(log).at(-1)).toMatch(/ info parley serve stopped \(SIGTERM\) signal=SIGTERM$/);
  });

  it("with --log-format json is one JSON object a line, without the PostgreSQL password", async () => {
    const log = join(home, "json.log");
    const { child, first } = await start([
      "serve",
      "--port",
      "0",
      "--db",
      join(home, "json.db"),
      "--log-format",
      "json",
      "--log-file",
      log,
    ]);
    const url = first.replace("export PARLEY_BASE_URL=", "");
    await fetch(`${url}/readyz`);
    await until(() => read(log).some((l) => l.includes("/readyz")), "the access line");
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    const objects = read(log).map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const o of objects) {
      expect(o.time).toMatch(/^\d{4}-.*Z$/);
      expect(["info", "warn", "error"]).toContain(o.level);
    }
    expect(objects).toContainEqual(
      expect.objectContaining({ msg: "request", method: "GET", route: "/readyz", status: 200 }),
    );
    expect(objects).toContainEqual(
      expect.objectContaining({
        msg: "parley serve started",
        version: pkg.version,
        store: `sqlite ${join(home, "json.db")}`,
      }),
    );
    expect(objects.at(-1)).toEqual(
      expect.objectContaining({ msg: "parley serve stopped (SIGINT)" }),
    );

    // A refused PostgreSQL: the failure is one line, and no line names the password.
    const refused = spawnSync(
      process.execPath,
      [
        CLI,
        "serve",
        "--port",
        "0",
        "--db",
        "postgres://parley:hunter2@127.0.0.1:1/chat",
        "--log-format",
        "json",
      ],
      { env, encoding: "utf8" },
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).not.toContain("hunter2");
  });

  it("--log-format other than text or json is a usage error", () => {
    const result = spawnSync(process.execPath, [CLI, "serve", "--log-format", "xml"], {
      env,
      encoding: "utf8",
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^parley: --log-format must be text or json, not "xml"\./);
  });
});

describe("parley ssh's log", () => {
  it("SIGHUP reopens the log file and leaves the server running", async () => {
    const keys = join(home, "keys");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(keys, `parley-user="alice" ${newHostKey().public}\n`);
    const log = join(home, "ssh.log");
    const { child } = await start([
      "ssh",
      "--port",
      "0",
      "--db",
      join(home, "team.db"),
      "--authorized-keys",
      keys,
      "--log-file",
      log,
      "--threads",
      "0",
      "--metrics",
      "127.0.0.1:0",
    ]);
    await until(() => read(log).some((l) => l.includes("parley ssh started")), "the start line");
    const started = read(log).find((l) => l.includes("parley ssh started"))!;
    expect(started).toMatch(TEXT_LINE);
    expect(started).toMatch(/ ssh=127\.0\.0\.1:\d+ /);
    // Its metrics, sessions included, on their own address.
    const metrics = / metrics=(\S+)/.exec(started)![1]!;
    expect(await (await fetch(metrics)).text()).toMatch(/^parley_ssh_sessions 0$/m);
    renameSync(log, `${log}.1`);
    child.kill("SIGHUP");
    await until(() => read(log).some((l) => l.includes("reopened the log file")), "the reopen");
    expect(child.exitCode).toBe(null);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(read(log).at(-1)).toMatch(/ info parley ssh stopped \(SIGTERM\)/);
  });
});
