// A throwaway OpenSSH server on loopback for the end-to-end tests: its own host key,
// one authorized key, its own config, no PAM and no passwords. Plus what the tests
// need around it: the ssh command line that runs the built parley on the other side,
// and a way to see which parley processes are still running for a data folder.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { freePort } from "../free-port.ts";
import { commandLine, environment, onPath, running, shq } from "../processes.ts";
import { CLI, hasTmux, ROOT } from "./tmux.ts";

export const SSHD = "/usr/sbin/sshd";

function sshdConfig(dir: string, port: number): string {
  return [
    "ListenAddress 127.0.0.1",
    `Port ${port}`,
    `HostKey ${join(dir, "host_key")}`,
    `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "UsePAM no",
    `PidFile ${join(dir, "sshd.pid")}`,
    "StrictModes no",
    "PermitRootLogin yes",
    "PermitUserEnvironment no",
    "X11Forwarding no",
    "AllowTcpForwarding no",
    "PrintMotd no",
    "LogLevel INFO",
    "",
  ].join("\n");
}

/**
 * Why the SSH tests cannot run here, or undefined when they can: the binaries, tmux, the
 * privilege separation folder, and sshd's own check of a config like the real one.
 */
export function sshdSkipReason(): string | undefined {
  if (process.platform !== "linux") return "the SSH tests read /proc: Linux only";
  if (!hasTmux()) return "tmux is not installed";
  if (!existsSync(SSHD)) return `${SSHD} is missing (Debian: apt-get install openssh-server)`;
  for (const tool of ["ssh", "ssh-keygen"]) {
    if (!onPath(tool)) return `${tool} is missing (Debian: apt-get install openssh-client)`;
  }
  if (process.getuid?.() !== 0) {
    return "sshd needs root here (privilege separation, and logging in as another user's session)";
  }
  try {
    // sshd refuses to start without its privilege separation folder.
    mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  } catch (error) {
    return `cannot create /run/sshd, which sshd needs: ${(error as Error).message}`;
  }
  const dir = mkdtempSync(join(tmpdir(), "parley-sshd-check-"));
  try {
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "host_key")], {
      stdio: "ignore",
    });
    writeFileSync(join(dir, "authorized_keys"), "");
    writeFileSync(join(dir, "sshd_config"), sshdConfig(dir, 22));
    execFileSync(SSHD, ["-t", "-f", join(dir, "sshd_config")], { stdio: "pipe" });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    return `sshd cannot run with a test config: ${stderr || (error as Error).message}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return undefined;
}

export type Sshd = {
  port: number;
  user: string;
  /** The client's private key. */
  key: string;
  /** What sshd said on stderr (-e), for failure messages. */
  log(): string;
  /**
   * The local command that runs `remote` on this server in a remote pseudo-terminal
   * (-tt), with no user or system ssh config and no host key prompts.
   */
  ssh(remote: string): string;
  stop(): Promise<void>;
};

/** Starts `sshd -D -e` on a free loopback port; waits until it listens. */
export async function startSshd(): Promise<Sshd> {
  const dir = mkdtempSync(join(tmpdir(), "parley-sshd-"));
  const key = join(dir, "client_key");
  const keygen = (file: string) =>
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "parley-e2e", "-f", file], {
      stdio: "ignore",
    });
  keygen(join(dir, "host_key"));
  keygen(key);
  writeFileSync(join(dir, "authorized_keys"), readFileSync(`${key}.pub`));
  const user = userInfo().username;

  let lastError = "";
  // The free port can be taken between the probe and sshd's bind: try a few.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    writeFileSync(join(dir, "sshd_config"), sshdConfig(dir, port));
    let log = "";
    const child: ChildProcess = spawn(SSHD, ["-D", "-e", "-f", join(dir, "sshd_config")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.setEncoding("utf8");
    const listening = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      child.stderr?.on("data", (chunk: string) => {
        log += chunk;
        if (log.includes("Server listening on")) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once("exit", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (await listening) {
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once("exit", () => resolve());
      });
      return {
        port,
        user,
        key,
        log: () => log,
        ssh: (remote) =>
          [
            "ssh",
            "-tt",
            "-F",
            "/dev/null",
            "-i",
            shq(key),
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "LogLevel=ERROR",
            "-p",
            String(port),
            `${user}@127.0.0.1`,
            shq(remote),
          ].join(" "),
        async stop() {
          // Only the listener: each session is its own process, which ends with its client.
          child.kill("SIGTERM");
          await exited;
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill("SIGKILL");
    lastError = log;
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`sshd did not start:\n${lastError}`);
}

/**
 * The remote command: the built parley of this checkout, on Node 24 (the one running the
 * tests), with its own XDG folders, so the session starts on a fresh demo.
 */
export function remoteParley(home: string, env: Record<string, string> = {}): string {
  const vars: Record<string, string> = {
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    XDG_CONFIG_HOME: join(home, "config"),
    ...env,
  };
  const assignments = Object.entries(vars).map(([k, v]) => `${k}=${shq(v)}`);
  return `cd ${shq(ROOT)} && env ${assignments.join(" ")} PATH=${shq(dirname(process.execPath))}:"$PATH" node dist/cli.js`;
}

/** The embedded server's database in a parley home made for `remoteParley`. */
export const databaseOf = (home: string) => join(home, "data", "parley", "parley.db");

/**
 * Running parley clients (`node …/dist/cli.js`, not zombies) whose XDG_DATA_HOME is
 * `dataHome`. After exec, node's own arguments no longer name the folder: its
 * environment does.
 */
export function parleyProcesses(dataHome: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const [exe, script] = commandLine(pid);
    if (exe?.split("/").pop() !== "node") continue;
    if (script !== CLI && script !== "dist/cli.js") continue;
    // A zombie has no environment left (and is no longer running).
    if (!environment(pid).includes(`XDG_DATA_HOME=${dataHome}`)) continue;
    if (running(pid)) found.push(pid);
  }
  return found;
}
