// Debian's nginx, run by a test in a folder of its own: the main configuration around the
// `server` blocks a test takes from docs/team.md (made local), no root needed.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** nginx's path, or undefined where it is not installed (apt-get install nginx). */
export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find(
  (p) => spawnSync(p, ["-v"]).status === 0,
);

const TEMPS = ["body", "proxy", "fastcgi", "uwsgi", "scgi"];

/**
 * Starts nginx with its pid, logs and temporary files in `dir`, and `servers` (with any
 * `httpLines` before them) in its http block. The caller ends it.
 */
export function startNginx(dir: string, servers: string, httpLines: string[] = []): ChildProcess {
  for (const temp of TEMPS) mkdirSync(join(dir, temp), { recursive: true });
  writeFileSync(
    join(dir, "nginx.conf"),
    [
      "daemon off;",
      process.getuid?.() === 0 ? "user root;" : "",
      "worker_processes 1;",
      `pid ${join(dir, "nginx.pid")};`,
      `error_log ${join(dir, "error.log")} warn;`,
      "events { worker_connections 256; }",
      "http {",
      `  access_log ${join(dir, "access.log")};`,
      ...httpLines.map((line) => `  ${line}`),
      ...TEMPS.map((t) => `  ${t === "body" ? "client_body" : t}_temp_path ${join(dir, t)};`),
      servers,
      "}",
    ].join("\n"),
  );
  return spawn(NGINX!, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: "ignore" });
}
