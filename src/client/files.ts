// Files that hold tokens, messages or unsent work: private (0600 in a 0700 folder) and
// written whole or not at all (a temporary file renamed over the old one), so a crash or
// `kill -9` mid-write leaves the previous version, never half of one.
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { logEscape } from "../log-escape.ts";

export function writePrivateFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}

/** The file's text, or undefined if there is no such file. */
export function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export function removeIfExists(file: string): void {
  rmSync(file, { force: true });
}

/**
 * Moves a file that could not be used out of the way (`<file>.bad-<time>`), so that it is
 * neither read again nor lost: what it held can still be looked at. Returns the new name.
 */
export function setAside(file: string, now = Date.now()): string {
  const aside = `${file}.bad-${now}`;
  renameSync(file, aside);
  return aside;
}

/**
 * One line, with the time, to a log file; a log that cannot be written is not an error.
 * Never through a symbolic link (it could point anywhere), and a log that others could
 * read is made private.
 */
export function logLine(file: string, line: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const flags =
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
    const fd = openSync(file, flags, 0o600);
    try {
      const stat = fstatSync(fd);
      if (stat.uid === process.getuid?.() && (stat.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
      writeSync(fd, `${new Date().toISOString()} ${line}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    // nowhere better to say it
  }
}

/**
 * Writes what `produce` returns to `file` at most once per `delayMs` while changes keep
 * coming, and at once on `flush` (at exit). A failed write is retried with the next change.
 */
export function debouncedWriter(file: string, produce: () => string, delayMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    try {
      writePrivateFile(file, produce());
    } catch {
      // a full disk or a folder gone: the next change tries again
    }
  };
  return {
    schedule() {
      timer ??= setTimeout(write, delayMs);
      timer.unref?.();
    },
    flush() {
      if (timer !== undefined) write();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Node's warnings (a deprecation, a negative timeout) into `file` instead of stderr, which
 * is the screen while the client runs; gives back a function that puts Node's printer back.
 */
export function warningsToLog(file: string): () => void {
  const printers = process.listeners("warning");
  process.removeAllListeners("warning");
  const onWarning = (warning: Error) =>
    logLine(file, logEscape(`node warning: ${warning.name}: ${warning.message}`, 500));
  process.on("warning", onWarning);
  return () => {
    process.off("warning", onWarning);
    for (const printer of printers) process.on("warning", printer);
  };
}
