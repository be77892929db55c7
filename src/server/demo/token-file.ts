// The demo's tokens, kept where the banner can print them again on every start: in a file
// of their own beside the database (mode 0600, like the ssh host key), never in it. The
// database holds their SHA-256 only, as it does every token, so a copy of it or a pg_dump
// signs nobody in. Made once, atomically (a second instance starting at the same moment
// reads the first one's); anything wrong with it (unreadable, a symbolic link, not ours)
// and the demo users get tokens of this process instead (demo/users.ts).
import { linkSync, lstatSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { newToken } from "../tokens.ts";

const TOKEN = /^prly_[A-Za-z0-9_-]{32}$/;

/** The tokens kept in `file` by user name, making it with fresh ones for `names` if missing. */
export function keptDemoTokens(file: string, names: readonly string[]): Map<string, string> {
  try {
    if (!exists(file)) {
      // parley's data folder (PostgreSQL's case) may not be there yet; a SQLite file's is.
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.new`;
      const fresh = Object.fromEntries(names.map((name) => [name, newToken()]));
      writeFileSync(temporary, `${JSON.stringify(fresh)}\n`, { mode: 0o600, flag: "wx" });
      try {
        linkSync(temporary, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      } finally {
        unlinkSync(temporary);
      }
    }
    if (lstatSync(file).isSymbolicLink()) return new Map();
    const kept = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    return new Map(
      Object.entries(kept).filter((entry): entry is [string, string] => {
        const [name, token] = entry;
        return names.includes(name) && typeof token === "string" && TOKEN.test(token);
      }),
    );
  } catch {
    return new Map();
  }
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
