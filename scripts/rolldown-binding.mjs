// Before every build (the prebuild script; plain JavaScript, so that any Node runs it).
// npm on a Node older than 20.19 (Node 18's npm, as Debian 12 and Ubuntu 24.04 ship it)
// leaves out rolldown's native build: an optional dependency whose engines exclude that
// Node. Nothing builds without it. When rolldown cannot load it, this runs npm install once
// more on this Node (24, the devDependency `node`, first on PATH in npm scripts): it adds
// what was left out, from the lockfile, and changes nothing else (--no-save). An install
// script would do it sooner, but it would be published and run for people installing the
// package.
import { spawnSync } from "node:child_process";

try {
  await import("rolldown");
} catch (error) {
  const npmCli = process.env.npm_execpath;
  if (!/native binding/i.test(String(error)) || !npmCli) throw error;
  console.error(
    `parley: npm left out rolldown's native build (it does on a Node older than 20.19); adding it with Node ${process.versions.node}`,
  );
  const install = spawnSync(
    process.execPath,
    [npmCli, "install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund"],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  process.exit(install.status ?? 1);
}
