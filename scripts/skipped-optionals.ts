// Run by `npm ci` / `npm install` in a clone (the `prepare` script; never for people
// installing the package). An npm running on a Node older than the one parley's scripts run
// on (Node 18's npm, as Debian 12 and Ubuntu 24.04 ship it) leaves out every optional
// dependency whose engines exclude that Node: rolldown's native build among them (it wants
// ^20.19 or >=22.12), and nothing builds without it. So this runs the same npm once more,
// on the Node 24 that npm ci has just installed (node_modules/.bin/node, first on PATH in
// npm scripts): it adds what was left out and changes nothing else (--no-save: the
// lockfile already lists them; --ignore-scripts: this script does not run again).
import { spawnSync } from "node:child_process";

// The Node npm itself runs on (npm says which in npm_node_execpath).
const npmNodePath = process.env.npm_node_execpath;
const npmNode = npmNodePath
  ? spawnSync(npmNodePath, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim()
  : "";
const [major = 0, minor = 0] = npmNode.split(".").map(Number);
const npmCli = process.env.npm_execpath;
// 20.19 is the oldest Node whose npm keeps every optional dependency parley has.
const older = npmNode !== "" && (major < 20 || (major === 20 && minor < 19));
if (older && npmCli && !process.env.PARLEY_SECOND_PASS) {
  console.error(
    `parley: npm runs on Node ${npmNode}, which skips optional dependencies; adding them on Node ${process.versions.node}`,
  );
  const result = spawnSync(
    process.execPath,
    [npmCli, "install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund"],
    { stdio: "inherit", env: { ...process.env, PARLEY_SECOND_PASS: "1" } },
  );
  process.exit(result.status ?? 1);
}
