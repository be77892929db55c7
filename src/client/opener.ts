// Opening a link on the person's own machine: the platform's opener (xdg-open, open),
// started as an argument vector, never through a shell, detached from parley. Over SSH
// there is none: the opener would run on the remote machine, where nobody sees it.
import { type ChildProcess, spawn } from "node:child_process";

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
  return (url) =>
    new Promise<void>((resolve, reject) => {
      // Checked again here: this string becomes a program's argument.
      if (!/^(?:https?:[\x21-\x7e]+|mailto:[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+)$/i.test(url)) {
        reject(new Error("not an http, https or plain mailto address"));
        return;
      }
      let child: ChildProcess;
      try {
        child = launch(command, [url], { detached: true, stdio: "ignore", shell: false });
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

/** The platform's opener for the local client, or nothing over SSH or on an unknown platform. */
export function platformOpener(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): OpenUrl | undefined {
  const command = openerCommand(platform);
  return localOpener(env, command ? spawnOpener(command) : undefined);
}
