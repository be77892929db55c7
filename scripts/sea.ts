// `npm run dist`: parley as one executable file for machines without Node, with Node's
// single executable applications (https://nodejs.org/api/single-executable-applications.html):
//   dist/sea/parley   (the node running this script, with parley inside)
// Node 24 runs only one CommonJS script as the executable's main, and parley's bundle is
// split into chunks, with an ES module to start it and a worker script for `parley ssh`. So the executable carries dist/ as assets, and its main (below)
// writes them once, per build, to $XDG_CACHE_HOME/parley/sea-<hash>/ (0700), then imports
// dist/cli.js from there with Node's own loader: the same code as `npm install -g`, worker
// threads included. Linux and macOS. Then test/release/sea.test.ts runs it (not in npm test).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");
const OUT = join(DIST, "sea");
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const files = readdirSync(DIST, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && !entry.name.endsWith(".map"))
  .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
  .sort();
// launch.cjs: written below, beside the others in the cache folder.
const extracted = [...files, "launch.cjs"];
const id = createHash("sha256");
for (const file of files) id.update(file).update(readFileSync(join(ROOT, file)));
id.update(version);

// The executable's main: CommonJS, Node's built-in modules only.
const MAIN = `"use strict";
const sea = require("node:sea");
const fs = require("node:fs");
const path = require("node:path");
const os = require("node:os");
const { createRequire } = require("node:module");
const { pathToFileURL } = require("node:url");
const files = ${JSON.stringify(extracted)};
const cacheHome =
  process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME)
    ? process.env.XDG_CACHE_HOME
    : process.platform === "darwin"
      ? path.join(os.homedir(), "Library", "Caches")
      : path.join(os.homedir(), ".cache");
const root = path.join(cacheHome, "parley", "sea-${id.digest("hex").slice(0, 16)}");
if (!fs.existsSync(path.join(root, "package.json"))) {
  // Written whole into a folder of its own, then renamed: a crash or a second parley
  // starting at the same time never sees half of it.
  fs.mkdirSync(path.dirname(root), { recursive: true, mode: 0o700 });
  const temp = fs.mkdtempSync(root + ".");
  for (const file of files) {
    fs.mkdirSync(path.join(temp, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(temp, file), new Uint8Array(sea.getRawAsset(file)));
  }
  fs.writeFileSync(path.join(temp, "package.json"), ${JSON.stringify(JSON.stringify({ type: "module", version }))});
  try {
    fs.renameSync(temp, root);
  } catch {
    fs.rmSync(temp, { recursive: true, force: true }); // another parley was first
  }
}
// A file loaded by Node's own loader, whose import() can load ES modules from disk.
createRequire(path.join(root, "package.json"))("./launch.cjs");
`;
const LAUNCH = `import(${JSON.stringify("./dist/cli.js")});\n`;
writeFileSync(join(OUT, "launch.cjs"), LAUNCH);
writeFileSync(join(OUT, "main.cjs"), MAIN);

const assets: Record<string, string> = { "launch.cjs": join(OUT, "launch.cjs") };
for (const file of files) assets[file] = join(ROOT, file);
const blob = join(OUT, "parley.blob");
const seaConfig = join(OUT, "sea-config.json");
writeFileSync(
  seaConfig,
  JSON.stringify({
    main: join(OUT, "main.cjs"),
    output: blob,
    disableExperimentalSEAWarning: true,
    assets,
  }),
);
execFileSync(process.execPath, ["--experimental-sea-config", seaConfig], { stdio: "inherit" });

const exe = join(OUT, "parley");
copyFileSync(process.execPath, exe);
const macos = process.platform === "darwin";
if (macos) execFileSync("codesign", ["--remove-signature", exe]);
execFileSync(
  process.execPath,
  [
    join(ROOT, "node_modules", "postject", "dist", "cli.js"),
    exe,
    "NODE_SEA_BLOB",
    blob,
    "--sentinel-fuse",
    "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
    ...(macos ? ["--macho-segment-name", "NODE_SEA"] : []),
  ],
  { stdio: ["ignore", "ignore", "inherit"] },
);
if (macos) execFileSync("codesign", ["--sign", "-", exe]);
for (const file of ["main.cjs", "launch.cjs", "parley.blob", "sea-config.json"])
  rmSync(join(OUT, file));
process.stdout.write(
  `${relative(ROOT, exe)}: ${(statSync(exe).size / 1e6).toFixed(1)} MB (node ${process.version}, ${process.platform}/${process.arch})\n`,
);
