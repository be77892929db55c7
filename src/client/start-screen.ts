// The start screen kept from the last run: the last frame of the start view (the list
// from its top, nothing open) is saved at the quit, and the next start draws it at once,
// before React and Ink have loaded (most of a start), its status line saying when it was
// last synced. Ink then takes over that screen, writing only what differs from it
// (src/ui/ink/frames.ts), so the hand-over does not flicker. Only in the same terminal
// size, for the same server and token, and for a day at most, like the kept query cache.
// The file is checked before it is drawn: only text, SGR styles and OSC 8 links reach the
// terminal, as in the frames it came from.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { frameAlreadyShown, watchFrames } from "../ui/ink/frames.ts";
import type { StartView } from "../ui/screen/session.ts";
import { connectionLabel, syncedLabel } from "../ui/screen/status-labels.ts";
import { writePrivateFile } from "./files.ts";

const VERSION = 1;
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
const ESC = "\x1b";
const ENTER_ALTERNATE_SCREEN = `${ESC}[?1049h`;
const LEAVE_ALTERNATE_SCREEN = `${ESC}[?1049l`;
const HIDE_CURSOR = `${ESC}[?25l`;
const SHOW_CURSOR = `${ESC}[?25h`;
const HOME = `${ESC}[H`;
const FAINT = `${ESC}[2m`;
const PLAIN = `${ESC}[0m`;
/** SGR styles, OSC 8 links (ST or BEL), and text without controls: all a frame may hold. */
const SAFE_LINE =
  /^(?:\x1b\[[0-9;:]*m|\x1b\]8;[^\x00-\x1f\x7f-\x9f]*?(?:\x1b\\|\x07)|[^\x00-\x1f\x7f-\x9f])*$/;
/** Far more than a frame of the largest terminal: a bigger file is not read. */
const MAX_BYTES = 4 << 20;

type Kept = {
  version: number;
  owner: string;
  columns: number;
  rows: number;
  savedAt: number;
  frame: string;
  hints: string;
};

export type StartScreenFile = { path: string; owner: string };

/** Where the start screen for this server (its address, or the demo's database) is kept. */
export function startScreenFile(
  cacheFolder: string,
  server: string,
  token: string | undefined,
): StartScreenFile {
  const owner = createHash("sha256")
    .update(`${server}\n${token ?? ""}`)
    .digest("hex")
    .slice(0, 24);
  return { path: join(cacheFolder, `screen-${owner}.json`), owner };
}

function read(file: StartScreenFile): Kept | undefined {
  try {
    if (statSync(file.path).size > MAX_BYTES) return undefined;
    const kept = JSON.parse(readFileSync(file.path, "utf8")) as Kept;
    if (kept.version !== VERSION || kept.owner !== file.owner) return undefined;
    if (typeof kept.frame !== "string" || typeof kept.hints !== "string") return undefined;
    return kept;
  } catch {
    return undefined;
  }
}

/** The status line as the screen draws it before the server answers, unstyled but faint. */
function statusRow(columns: number, hints: string, savedAt: number): string {
  // As the status bar says it before the server answers.
  const connecting = { state: "connecting" } as const;
  const right = `${connectionLabel(connecting)}${syncedLabel(connecting, savedAt)} `;
  const room = Math.max(0, columns - right.length - 1);
  // The keys line is narrow text (arrows, dots): one column a character.
  const left = ` ${hints}`;
  const shown = left.length <= room ? left : `${left.slice(0, Math.max(0, room - 1))}…`;
  return `${FAINT}${shown.padEnd(columns - right.length)}${right}${PLAIN}`;
}

/**
 * Draws the kept start screen on `stdout` in the alternate screen, when there is one for
 * this size; says whether it did. Ink, mounted next, starts from it.
 */
export function showStartScreen(
  file: StartScreenFile,
  stdout: NodeJS.WriteStream,
  now = Date.now(),
): boolean {
  const kept = read(file);
  if (!kept || kept.columns !== stdout.columns || kept.rows !== stdout.rows) return false;
  if (!(now - kept.savedAt >= 0 && now - kept.savedAt < MAX_AGE_MS)) return false;
  const lines = kept.frame.split("\n");
  if (lines.length !== kept.rows || !lines.every((line) => SAFE_LINE.test(line))) return false;
  if (!SAFE_LINE.test(kept.hints)) return false;
  lines[lines.length - 1] = statusRow(kept.columns, kept.hints, kept.savedAt);
  const frame = lines.join("\n");
  stdout.write(`${ENTER_ALTERNATE_SCREEN}${HIDE_CURSOR}${HOME}${frame}${HOME}`);
  frameAlreadyShown(stdout, frame);
  return true;
}

/** Leaves the kept screen, for a start that ends before Ink took it over. */
export function leaveStartScreen(stdout: NodeJS.WriteStream): void {
  stdout.write(`${LEAVE_ALTERNATE_SCREEN}${SHOW_CURSOR}`);
}

/**
 * Remembers the last frame written while the screen showed the start view, and when; `save`
 * keeps it for the next start (at the quit), its status line saying it was last synced then.
 */
export function keepStartScreen(
  file: StartScreenFile,
  stdout: NodeJS.WriteStream,
  view: StartView,
): { save(): void; stop(): void } {
  let last: Omit<Kept, "version" | "owner"> | undefined;
  const stop = watchFrames(stdout, (frame) => {
    if (!view.shown) return;
    // When it was drawn: what it shows was the server's word then, not at the quit.
    const savedAt = Date.now();
    last = { columns: stdout.columns, rows: stdout.rows, frame, hints: view.hints, savedAt };
  });
  return {
    save() {
      if (!last) return;
      const kept: Kept = { version: VERSION, owner: file.owner, ...last };
      try {
        writePrivateFile(file.path, JSON.stringify(kept));
      } catch {
        // A convenience: a read-only cache folder must not stop the quit.
      }
    },
    stop,
  };
}
