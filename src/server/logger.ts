// The log of `parley serve` and `parley ssh`: every line with its time and level, as text
// ("2026-11-27T13:00:00.000Z info …") or, with --log-format json, one JSON object a line
// for a collector. It goes to stderr, or with --log-file to a private file that SIGHUP
// reopens (after logrotate moved it). Lines come escaped from their writers; what is
// added here (an access line's fields) is escaped here. Hand-written rather than pino:
// a few kinds of line, written synchronously (a line is never lost when the process
// stops), and no worker thread or transport to bundle.
import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import { escapeForLog } from "../log-escape.ts";
import type { AccessLine } from "./ops-routes.ts";

export type LogFormat = "text" | "json";
export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];
export type Level = "info" | "warn" | "error";
type Fields = Record<string, string | number | undefined>;

export type Logger = {
  /** A line a part of the server says; "error: …" and "warning: …" set the level. */
  line(text: string): void;
  /** A line with fields: `message` for text, the fields kept apart in JSON. */
  event(level: Level, message: string, fields?: Fields): void;
  access(request: AccessLine): void;
  /** Opens --log-file again (SIGHUP); true when there is one. */
  reopen(): boolean;
  close(): void;
};

export type LoggerOptions = {
  format?: LogFormat;
  /** Append here (made 0600, never through a symbolic link); default stderr. */
  file?: string | undefined;
  /** For tests: the clock. */
  now?: () => Date;
};

function openLog(path: string): number {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
    0o600,
  );
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw Object.assign(new Error(`The log file ${path} is not a regular file.`), {
      expected: true,
    });
  }
  return fd;
}

const levelOf = (text: string): Level =>
  /^error\b/i.test(text) ? "error" : /^warning\b/i.test(text) ? "warn" : "info";

export function createLogger(options: LoggerOptions = {}): Logger {
  const format = options.format ?? "text";
  const now = options.now ?? (() => new Date());
  let fd = options.file === undefined ? 2 : openLog(options.file);

  function write(level: Level, message: string, fields: Fields = {}): void {
    const time = now().toISOString();
    let text: string;
    if (format === "json") {
      text = JSON.stringify({ time, level, msg: message, ...fields });
    } else {
      const extra = Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => ` ${k}=${escapeForLog(String(v))}`)
        .join("");
      text = `${time} ${level} ${message}${extra}`;
    }
    try {
      writeSync(fd, `${text}\n`);
    } catch {
      // A full disk or a closed stderr must not take the server down.
    }
  }

  return {
    line: (text) => write(levelOf(text), text),
    event: write,
    access(r) {
      const user = r.user === undefined ? "-" : escapeForLog(r.user);
      if (format === "json") {
        write("info", "request", { ...r, user: r.user ?? undefined });
      } else {
        write("info", `${r.method} ${escapeForLog(r.route)} ${r.status} ${r.ms}ms ${user}`);
      }
    },
    reopen() {
      if (options.file === undefined) return false;
      const next = openLog(options.file);
      const old = fd;
      fd = next;
      closeSync(old);
      return true;
    },
    close() {
      if (fd !== 2) closeSync(fd);
      fd = 2;
    },
  };
}
