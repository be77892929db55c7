// Other processes as Linux's /proc shows them, for tests and benchmarks that must find
// what they started (a client under tmux, node under ssh) or wait for it to be gone.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** `/proc/PID/FILE` split at NULs (cmdline, environ); empty once the process is gone. */
function procList(pid: number, file: "cmdline" | "environ"): string[] {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8").split("\0");
  } catch {
    return [];
  }
}

/** The command line: argv[0] first (not `comm`: Node names its main thread "MainThread"). */
export const commandLine = (pid: number): string[] => procList(pid, "cmdline");

/** The environment, as NAME=value entries (a zombie has none left). */
export const environment = (pid: number): string[] => procList(pid, "environ");

/** "pid (comm) state ppid …" read past comm, which may hold spaces and parentheses. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Whether `pid` still runs: a zombie (dead, not yet reaped) or a gone process does not. */
export function running(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry) && Number(statFields(Number(entry))?.[1]) === pid) {
      out.push(Number(entry));
    }
  }
  return out;
}

/** Every process under `root`, nearest first. */
export function descendants(root: number): number[] {
  const all: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of childrenOf(queue.shift()!)) {
      all.push(child);
      queue.push(child);
    }
  }
  return all;
}

/** Resident memory of a process, in MiB (ps works on Linux and macOS). */
export function rssMiB(pid: number): number {
  return Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" })) / 1024;
}

/**
 * Resident memory once it has settled (worker threads load their code after a server says
 * it is listening; sessions that left are given back a while later): sampled every
 * `everyMs` until two samples are within `withinMiB`, `tries` times at the most.
 */
export async function settledRssMiB(
  pid: number,
  { everyMs, withinMiB, tries }: { everyMs: number; withinMiB: number; tries: number },
): Promise<number> {
  let last = rssMiB(pid);
  for (let i = 0; i < tries; i++) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    const now = rssMiB(pid);
    if (Math.abs(now - last) < withinMiB) return now;
    last = now;
  }
  return last;
}

/** Whether `program` is on PATH (the shell's `command -v`). */
export const onPath = (program: string): boolean =>
  spawnSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" }).status === 0;

/** `value` in single quotes for a POSIX shell. */
export const shq = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
