// Run by `npm ci` / `npm install` in a clone (the `prepare` script; never for people
// installing the package). An npm running on a Node older than the one parley's scripts run
// on (Node 18's npm, as Debian 12 and Ubuntu 24.04 ship it) leaves out every optional
// dependency whose engines exclude that Node: rolldown's native build among them (it wants
// ^20.19 or >=22.12), and nothing builds without it. So this runs the same npm once more,
// on the Node 24 that npm ci has just installed (node_modules/.bin/node, first on PATH in
// npm scripts): it adds what was left out and changes nothing else (--no-save: the
// lockfile already lists them; --ignore-scripts: this script does not run again).
import { spawnSync } from "node:child_process";

const npmNode = /\bnode\/v(\d+)\.(\d+)/.exec(process.env.npm_config_user_agent ?? "");
const npmCli = process.env.npm_execpath;
// 20.19 is the oldest Node whose npm keeps every optional dependency parley has.
const older =
  npmNode !== null && (Number(npmNode[1]) < 20 || (npmNode[1] === "20" && Number(npmNode[2]) < 19));
if (older && npmCli && !process.env.PARLEY_SECOND_PASS) {
  console.error(
    `parley: npm ran on Node ${npmNode[1]}.${npmNode[2]}, which skips optional dependencies; adding them on Node ${process.versions.node}`,
  );
  const result = spawnSync(
    process.execPath,
    [npmCli, "install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund"],
    { stdio: "inherit", env: { ...process.env, PARLEY_SECOND_PASS: "1" } },
  );
  process.exit(result.status ?? 1);
}
