// A throwaway PostgreSQL cluster for tests and benchmarks: Debian's initdb and pg_ctl in a
// temporary folder, listening on a free loopback port, stopped and deleted afterwards.
// PostgreSQL refuses to run as root, so as root it runs as the `postgres` user (runuser).
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../free-port.ts";

export type Cluster = {
  /** The cluster's `postgres` database, as a superuser. */
  url: string;
  stop(): void;
};

/** The folder of initdb and pg_ctl (the newest Debian PostgreSQL), or undefined. */
export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], "bin");
}

/** runuser lives in sbin, which a root shell's PATH need not hold (a bare CI, `env -i`). */
function runuser(): string {
  return ["/usr/sbin/runuser", "/sbin/runuser"].find((path) => existsSync(path)) ?? "runuser";
}

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install postgresql).");
  const dir = mkdtempSync(join(tmpdir(), "parley-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? runuser() : join(bin, tool);
    const argv = asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
    execFileSync(command, argv, { stdio: ["ignore", "ignore", "pipe"] });
  };
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const settings = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c max_connections=400",
    // A throwaway cluster: what a test checks is the server's durability, not the disk's.
    "-c fsync=off",
    "-c full_page_writes=off",
  ].join(" ");
  run("pg_ctl", ["start", "-w", "-D", data, "-l", join(dir, "log"), "-o", settings]);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["stop", "-w", "-m", "immediate", "-D", data]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new, empty database on the cluster; its URL. */
export async function createDatabase(clusterUrl: string, prefix = "parley"): Promise<string> {
  const { default: postgres } = await import("postgres");
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(clusterUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
