// Opening a link on the person's own machine: the browsers $BROWSER names, then the
// platform's opener (xdg-open, open), each started as an argument vector, never through a
// shell, detached from parley; the first that does not fail has opened it. Over SSH there
// is none: the opener would run on the remote machine, where nobody sees it.
import { type ChildProcess, spawn } from "node:child_process";
import { ShellWordsError, splitWords } from "./shell-words.ts";

/** Opens an address (already a safe http, https or mailto URL) or says why it could not. */
export type OpenUrl = (url: string) => Promise<void>;

type Launch = (command: string, args: string[], options: object) => ChildProcess;

/** A started opener that has not failed by then is taken to have done its job. */
const SETTLE_MS = 5000;

/** The opener command of `platform`, if parley knows one. */
export function openerCommand(platform: NodeJS.Platform): string | undefined {
  if (platform === "darwin") return "open";
  if (platform === "win32") return "explorer.exe";
  if (platform === "linux" || platform.endsWith("bsd") || platform === "sunos") return "xdg-open";
  return undefined;
}

/** `command URL`, detached, its output ignored; fails if it cannot start or exits non-zero. */
export function spawnOpener(command: string, launch: Launch = spawn): OpenUrl {
  return spawnCommand([command], launch);
}

/**
 * `argv` with the URL in place of each `%s` in it, else after it (as $BROWSER's entries
 * are read: the convention of xdg-utils and Python's webbrowser).
 */
export function spawnCommand(argv: readonly string[], launch: Launch = spawn): OpenUrl {
  const [command, ...rest] = argv as [string, ...string[]];
  const withUrl = (url: string) =>
    rest.some((arg) => arg.includes("%s"))
      ? rest.map((arg) => arg.replaceAll("%s", url))
      : [...rest, url];
  return (url) =>
    new Promise<void>((resolve, reject) => {
      // Checked again here: this string becomes a program's argument.
      if (!/^(?:https?:[\x21-\x7e]+|mailto:[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+)$/i.test(url)) {
        reject(new Error("not an http, https or plain mailto address"));
        return;
      }
      let child: ChildProcess;
      try {
        child = launch(command, withUrl(url), { detached: true, stdio: "ignore", shell: false });
      } catch (error) {
        reject(error);
        return;
      }
      const timer = setTimeout(resolve, SETTLE_MS);
      timer.unref();
      child.once("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new Error(error.code === "ENOENT" ? `${command} is not installed` : error.message));
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(failure(command, code, signal)));
      });
      child.unref();
    });
}

// xdg-open's exit statuses that say more than a number.
const XDG_OPEN_FAILURES: Record<number, string> = {
  3: "xdg-open found no program to open it with",
  4: "the program xdg-open started failed",
};

function failure(command: string, code: number | null, signal: NodeJS.Signals | null): string {
  if (code === null) return `${command} ended by ${signal}`;
  return (command === "xdg-open" && XDG_OPEN_FAILURES[code]) || `${command} exited with ${code}`;
}

/** Whether parley runs over SSH, where an opener would open things on the wrong machine. */
export function overSsh(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.SSH_CONNECTION || env.SSH_CLIENT);
}

/** `open` where parley runs on the person's own machine; nothing over SSH. */
export function localOpener(
  env: NodeJS.ProcessEnv,
  open: OpenUrl | undefined,
): OpenUrl | undefined {
  return overSsh(env) ? undefined : open;
}

/**
 * The commands of $BROWSER, a list separated by `:`, each a command with its arguments as
 * a shell would split them (an entry that cannot be split is left out).
 */
export function browserCommands(env: NodeJS.ProcessEnv): string[][] {
  const commands: string[][] = [];
  for (const entry of (env.BROWSER ?? "").split(":")) {
    try {
      const argv = splitWords(entry);
      if (argv.length > 0) commands.push(argv);
    } catch (error) {
      if (!(error instanceof ShellWordsError)) throw error;
    }
  }
  return commands;
}

/** Tries each in turn until one opens the URL; fails with every reason if none does. */
export function firstThatOpens(openers: readonly OpenUrl[]): OpenUrl {
  return async (url) => {
    const reasons: string[] = [];
    for (const open of openers) {
      try {
        return await open(url);
      } catch (error) {
        reasons.push(error instanceof Error ? error.message : String(error));
      }
    }
    throw new Error(reasons.join("; "));
  };
}

/**
 * $BROWSER's commands, then the platform's opener, for the local client; nothing over SSH,
 * or on an unknown platform without $BROWSER.
 */
export function platformOpener(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  launch: Launch = spawn,
): OpenUrl | undefined {
  const command = openerCommand(platform);
  const openers = [
    ...browserCommands(env).map((argv) => spawnCommand(argv, launch)),
    ...(command ? [spawnOpener(command, launch)] : []),
  ];
  return localOpener(env, openers.length > 0 ? firstThatOpens(openers) : undefined);
}
