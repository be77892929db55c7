// What a person gets from `npm install -g parley-chat`: the packed tarball installed into
// a temporary prefix, then the installed `parley` run the three ways people start it; and
// what `npm publish` would publish.
// Packs with --ignore-scripts: prepack would rebuild dist/ (cleaning it) under the other
// end-to-end tests running beside this one; `npm test` has just built it (pretest).
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/server/store/sqlite/migrations.ts";
import { OLD_NODE } from "./old-node.ts";
import { hasTmux, type Pane, ROOT, startPane } from "./tmux.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
/** What `parley --version` prints: the version and the database schema it makes. */
const VERSION_LINE = `parley ${pkg.version} (database schema ${MIGRATIONS.length})\n`;
const work = mkdtempSync(join(tmpdir(), "parley-pack-"));
const prefix = join(work, "prefix");
const bin = join(prefix, "bin");
// npm's own cache and config in the temp folder: nothing of the machine's is used or changed.
// No npm_config_* from an npm this test runs under (`npx -c` sets --call and --package).
const npmEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("npm_config_"))),
  npm_config_cache: join(work, "npm-cache"),
  // npm 10 takes its global prefix from the Node running it, which in npm scripts is
  // node_modules/node (the devDependency): npm exec would look for node_modules/node/lib.
  npm_config_prefix: prefix,
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
      expect.arrayContaining([
        "dist/cli.js",
        "dist/parley.cjs",
        "dist/ssh-worker.cjs",
        "README.md",
      ]),
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
    expect(out).toBe(VERSION_LINE);
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

  it.skipIf(OLD_NODE === undefined)(
    "on an older Node the installed parley refuses, with a hint that runs it",
    () => {
      const installed = join(bin, "parley");
      const refused = spawnSync(OLD_NODE!, [installed, "--version"], { encoding: "utf8" });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(`needs Node\\.js .*: npx -y node@24 ${installed.replace(/[.]/g, "\\.")}\n$`),
      );
      // From the repository npx finds the devDependency node@24: no download in a test.
      const hint = refused.stderr.trim().replace(/^.*: npx/, "npx");
      const rerun = spawnSync("bash", ["-c", `${hint} --version`], {
        cwd: ROOT,
        encoding: "utf8",
        env: npmEnv,
        timeout: 60_000,
      });
      expect(rerun.stdout, rerun.stderr).toBe(VERSION_LINE);
    },
  );

  it("npm publish --dry-run would publish the bundle, its web page, the README and package.json only", () => {
    // --dry-run, --offline and a registry nobody listens on (the discard port): it cannot
    // publish. --ignore-scripts for the same reason as the pack above.
    const result = npm([
      "publish",
      "--dry-run",
      "--offline",
      "--ignore-scripts",
      "--json",
      "--registry",
      "http://127.0.0.1:9/",
    ]);
    expect(result.status, result.stderr).toBe(0);
    // npm 11 keys the report by the package's name; npm 10 (Node 18's and 20's) does not.
    const json = JSON.parse(result.stdout);
    const report = json[pkg.name] ?? json;
    const paths: string[] = report.files.map((f: { path: string }) => f.path);
    expect(paths).toContain("dist/cli.js");
    const others = paths.filter(
      (p) =>
        !/^dist\/[\w/.-]+\.c?js$/.test(p) &&
        // parley web's page and xterm.js beside the bundle (rolldown.config.ts).
        !/^dist\/web\/[\w.-]+\.(html|css|m?js)$/.test(p) &&
        !["README.md", "package.json", "LICENSE"].includes(p),
    );
    expect(others).toEqual([]);
    // The Node 24 that `npm ci` brings to a clone (devDependency `node`, 190 MB) never
    // reaches the package or the people installing it.
    expect(pkg.devDependencies.node).toMatch(/^\^?24\./);
    expect(report.bundled).toEqual([]);
    expect(report.unpackedSize).toBeLessThan(10_000_000);
    for (const field of ["dependencies", "optionalDependencies", "peerDependencies"]) {
      expect(pkg[field] ?? {}, field).toEqual({});
    }
    expect(pkg.bundleDependencies ?? pkg.bundledDependencies ?? []).toEqual([]);
  });

  it("npx and npm exec run it from the tarball", () => {
    for (const args of [
      ["exec", "--yes", `--package=${tarball}`, "--", "parley", "--version"],
      // What `npx ./parley-chat-0.1.0.tgz --version` runs.
      ["exec", "--yes", "--", `./${tarball.split("/").at(-1)}`, "--version"],
    ]) {
      const result = npm(args, work);
      expect(result.stdout, `npm ${args.join(" ")}\n${result.stderr}`).toBe(VERSION_LINE);
    }
  });
});
