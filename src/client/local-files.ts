// The person's files, for /attach PATH: only where parley runs on their own machine (the
// client), never in `parley ssh`, where a path would name the server's disk.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, resolve } from "node:path";
import type { LocalFiles } from "../ui/screen/session.ts";

/** `~` and `~/…` are the home folder; anything else is taken from the current folder. */
export function expandPath(path: string, home = homedir(), cwd = process.cwd()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return resolve(home, path.slice(2));
  return resolve(cwd, path);
}

export function localFiles(home = homedir()): LocalFiles {
  return {
    async open(path) {
      const full = expandPath(path, home);
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(full);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new Error(
          code === "ENOENT"
            ? `there is no file ${path}`
            : code === "EACCES"
              ? `${path} cannot be read (permission denied)`
              : `${path} cannot be read (${code ?? "error"})`,
        );
      }
      if (info.isDirectory()) throw new Error(`${path} is a folder, not a file`);
      if (!info.isFile()) throw new Error(`${path} is not a regular file`);
      return {
        filename: basename(full),
        size: info.size,
        open: () => createReadStream(full, { highWaterMark: 64 * 1024 }),
      };
    },
  };
}
