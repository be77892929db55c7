// Drives the real, built `parley` in a real pseudo-terminal: a tmux session on its own
// socket, keys sent with send-keys, the screen read back with capture-pane.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, expect } from "vitest";
import { commandLine, descendants, running } from "../processes.ts";
import { pause, until } from "../wait.ts";

export const ROOT = resolve(import.meta.dirname, "../..");

/**
 * A person's pause between two keys sent to a pane: tmux passes keys on at once, so two
 * sent back to back can reach parley in one read (Esc and a letter then read as Alt+letter).
 */
export const beat = () => pause(150);

/** Types `line`, and Enter a beat later: typed text and Enter in one read is a paste. */
export async function enterLine(pane: Pick<Pane, "type" | "send">, line: string) {
  pane.type(line);
  await beat();
  pane.send("Enter");
}
export const CLI = join(ROOT, "dist/cli.js");

/** Fails the test file's tests at once, saying why, when dist/ has not been built. */
export function needsBuild(): void {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does)`);
  });
}

/** Run after the test, last pushed first. */
export type Cleanups = (() => unknown)[];

/**
 * A test file of the built CLI: the build checked before its tests, and after each test
 * what it pushed on the returned list (panes, servers, folders), the last pushed first.
 */
export function e2eEachTest(): Cleanups {
  const cleanups: Cleanups = [];
  needsBuild();
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The pid of the first process whose executable is `name`, under `root` (at any depth). */
export function descendantPid(root: number, name: string): number | undefined {
  return descendants(root).find((pid) => commandLine(pid)[0]?.split("/").pop() === name);
}

/** Blocks until none of `pids` runs, or `timeoutMs` has passed. */
function waitForExit(pids: number[], timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  while (pids.some(running) && Date.now() < deadline) Atomics.wait(sleeper, 0, 0, 20);
}

export type Pane = {
  home: string;
  send(...keys: string[]): void;
  /** Text typed literally (no key names). */
  type(text: string): void;
  screen(): string;
  info(format: string): string;
  /** The pid of the running `node` under the pane's shell. */
  nodePid(): number | undefined;
  waitFor(
    predicate: (screen: string) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<string>;
  resize(columns: number, rows: number): void;
  /** Any tmux command on this pane's server (`set -s set-clipboard on`, `show-buffer`). */
  tmux(...args: string[]): string;
  kill(): void;
};

let counter = 0;

/**
 * Starts `command` (run by bash, after `cd` to the repo) in a detached tmux session of
 * the given size, with its own XDG folders so every run starts from a fresh demo.
 */
export function startPane(options: {
  command: string;
  columns?: number;
  rows?: number;
  env?: Record<string, string>;
  home?: string;
}): Pane {
  const socket = `parley-e2e-${process.pid}-${counter++}`;
  const home = options.home ?? mkdtempSync(join(tmpdir(), "parley-e2e-"));
  const env: Record<string, string> = {
    TERM: "xterm-256color",
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    PATH: process.env.PATH ?? "",
    LANG: "C.UTF-8",
    ...options.env,
  };
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], {
      encoding: "utf8",
      env: { ...env, TMUX: "" },
    });
  tmux(
    "new-session",
    "-d",
    "-s",
    "main",
    "-x",
    String(options.columns ?? 120),
    "-y",
    String(options.rows ?? 40),
    ...Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
    "bash",
    "--noprofile",
    "--norc",
    "-c",
    `cd ${JSON.stringify(ROOT)}; ${options.command}; echo "EXITED=$?"; sleep 600`,
  );
  tmux("set-option", "-t", "main", "status", "off");
  const pane: Pane = {
    home,
    send: (...keys) => {
      tmux("send-keys", "-t", "main", ...keys);
    },
    type: (text) => {
      tmux("send-keys", "-t", "main", "-l", text);
    },
    screen: () => tmux("capture-pane", "-p", "-t", "main"),
    info: (format) => tmux("display-message", "-p", "-t", "main", format).trim(),
    nodePid: () => descendantPid(Number(pane.info("#{pane_pid}")), "node"),
    waitFor(predicate, what, timeoutMs = 15_000) {
      return until(
        () => {
          const screen = pane.screen();
          return predicate(screen) ? screen : undefined;
        },
        what,
        { timeoutMs, intervalMs: 100, detail: () => `Screen:\n${pane.screen()}` },
      );
    },
    resize: (columns, rows) => {
      tmux("resize-window", "-t", "main", "-x", String(columns), "-y", String(rows));
    },
    tmux,
    kill: () => {
      // What runs in the pane: on the hang-up a client writes its kept files on its way
      // out, so its home is removed once it has gone, not while it writes there.
      let inPane: number[] = [];
      try {
        inPane = descendants(Number(pane.info("#{pane_pid}")));
        tmux("kill-server");
      } catch {
        // already gone
      }
      waitForExit(inPane, 10_000);
      if (!options.home) rmSync(home, { recursive: true, force: true, maxRetries: 20 });
    },
  };
  return pane;
}

/**
 * `parley` between two snapshots of the terminal settings (raw mode, echo), `env`
 * assignments before it: the pane then says whether they came back and the exit code.
 */
export const inTtyCheck = (env = "") =>
  `before=$(stty -g); env ${env} node ${JSON.stringify(CLI)}; code=$?; [ "$(stty -g)" = "$before" ] && echo TTY-RESTORED; printf 'CODE=%s\\n' $code`;

/** Quits a parley started with inTtyCheck: exit 0, the terminal given back as it was. */
export async function quitAndCheck(p: Pane): Promise<void> {
  p.send("q");
  const after = await p.waitFor((s) => s.includes("CODE="), "parley to exit");
  expect(after).toContain("CODE=0");
  expect(after).toContain("TTY-RESTORED");
  expect(p.info("#{alternate_on}")).toBe("0");
  expect(p.info("#{cursor_flag}")).toBe("1");
}
