// What a person gets from `npm install -g parley-chat`: the packed tarball installed into
// a temporary prefix, then the installed `parley` run the three ways people start it.
// Packs with --ignore-scripts: prepack would rebuild dist/ (cleaning it) under the other
// end-to-end tests running beside this one; `npm test` has just built it (pretest).
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasTmux, type Pane, ROOT, startPane } from "./tmux.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const work = mkdtempSync(join(tmpdir(), "parley-pack-"));
const prefix = join(work, "prefix");
const bin = join(prefix, "bin");
// npm's own cache and config in the temp folder: nothing of the machine's is used or changed.
const npmEnv = {
  ...process.env,
  npm_config_cache: join(work, "npm-cache"),
  npm_config_userconfig: join(work, "npmrc"),
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};
const npm = (args: string[], cwd = ROOT) =>
  spawnSync("npm", args, { cwd, env: npmEnv, encoding: "utf8", timeout: 120_000 });

let tarball = "";
let packed: { path: string }[] = [];
let install: ReturnType<typeof npm>;
let child: ChildProcess | undefined;
let pane: Pane | undefined;

beforeAll(() => {
  const pack = npm(["pack", "--ignore-scripts", "--json", "--pack-destination", work]);
  expect(pack.status, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout);
  tarball = join(work, info.filename);
  packed = info.files;
  install = npm(["install", "-g", "--prefix", prefix, tarball]);
}, 180_000);

afterAll(() => {
  child?.kill("SIGKILL");
  pane?.kill();
  rmSync(work, { recursive: true, force: true });
});

describe(`the package ${pkg.name}`, () => {
  it("builds before packing, and holds the bundle and no source maps or sources", () => {
    expect(pkg.scripts.prepack).toMatch(/\bbuild\b/);
    const files = packed.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(["dist/cli.js", "dist/ssh-worker.js", "README.md"]),
    );
    expect(files.filter((f) => f.endsWith(".map") || f.startsWith("src/"))).toEqual([]);
  });

  it("installs with no dependencies and no install-script warnings", () => {
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/install.?script/i);
    expect(pkg.dependencies ?? {}).toEqual({});
    const installed = join(prefix, "lib", "node_modules", pkg.name);
    expect(existsSync(join(installed, "node_modules"))).toBe(false);
    expect(readdirSync(bin)).toEqual(["parley"]);
  });

  it("gives the command parley: --version", () => {
    const out = execFileSync(join(bin, "parley"), ["--version"], { encoding: "utf8" });
    expect(out).toBe(`parley ${pkg.version}\n`);
  });

  it("parley serve --port 0 answers the API", async () => {
    child = spawn(join(bin, "parley"), ["serve", "--port", "0", "--db", ":memory:", "--demo"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines = createInterface({ input: child.stdout! });
    const banner: string[] = [];
    await new Promise<void>((resolve) =>
      lines.on("line", (line) => {
        banner.push(line);
        if (banner.length === 2) resolve();
      }),
    );
    const url = banner[0]!.replace("export PARLEY_BASE_URL=", "");
    const token = /PARLEY_TOKEN=(\S+)/.exec(banner[1]!)![1];
    const response = await fetch(`${url}/v1/conversations`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it.skipIf(!hasTmux())("the installed client draws its first frame in a terminal", async () => {
    pane = startPane({ command: "parley", env: { PATH: `${bin}:${process.env.PATH}` } });
    await pane.waitFor((s) => s.includes("#team"), "the conversation list", 20_000);
    pane.send("q");
    await pane.waitFor((s) => s.includes("EXITED=0"), "parley to quit");
  });

  it("npx and npm exec run it from the tarball", () => {
    for (const args of [
      ["exec", "--yes", `--package=${tarball}`, "--", "parley", "--version"],
      // What `npx ./parley-chat-0.1.0.tgz --version` runs.
      ["exec", "--yes", "--", `./${tarball.split("/").at(-1)}`, "--version"],
    ]) {
      const result = npm(args, work);
      expect(result.stdout, `npm ${args.join(" ")}\n${result.stderr}`).toBe(
        `parley ${pkg.version}\n`,
      );
    }
  });
});
