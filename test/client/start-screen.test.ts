// The start screen kept from the last run (src/client/start-screen.ts): the last frame of
// the start view is kept at the quit, drawn at the next start in a terminal of the same
// size, and Ink's log-update then writes only what differs, leaving exactly its frame.
// A kept file for another size, owner or day, or holding anything but text, SGR styles
// and links, is not drawn.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type xterm from "@xterm/headless";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  keepStartScreen,
  showStartScreen,
  startScreenFile,
} from "../../src/client/start-screen.ts";
import logUpdate from "../../src/ui/ink/log-update.ts";
import Output from "../../src/ui/ink/output.ts";
import { headlessTerminal, screenText } from "../virtual-terminal.ts";

const ESC = "\x1b";
const COLUMNS = 60;
const ROWS = 6;
const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "parley-start-screen-"));
  dirs.push(dir);
  return dir;
}

/** A terminal of the given size, as the stream Ink and the start screen write to. */
function terminal(columns = COLUMNS, rows = ROWS) {
  const term = headlessTerminal(columns, rows);
  const stream = {
    isTTY: true,
    columns,
    rows,
    written: "",
    write(data: string) {
      stream.written += data;
      term.write(data);
      return true;
    },
  };
  return { term, stream, out: stream as unknown as NodeJS.WriteStream };
}

const settled = (term: xterm.Terminal) => new Promise<void>((resolve) => term.write("", resolve));

/** A full-screen frame as Ink's Output makes it: rows of text, the status line last. */
function frame(rows: string[], status: string): string {
  const output = new Output({ width: COLUMNS, height: ROWS });
  rows.forEach((text, y) => {
    output.write(0, y, text, { transformers: [] });
  });
  output.write(0, ROWS - 1, status, { transformers: [] });
  return output.get().output;
}

const LIST = frame(
  [` ${ESC}[1mparley${ESC}[22m · alice`, "│▸ bob      2m", "│  #team    5m", "│  carol    1h"],
  ` ↑↓ move · Enter open   ${ESC}[32m● online${ESC}[39m`,
);
const OPEN = frame([" parley · alice", "│  bob: hi there"], " Esc back");

/** Runs a session that draws `frames`, each with the start view shown or not, and quits. */
function runAndQuit(file: ReturnType<typeof startScreenFile>, frames: [string, boolean][]) {
  const { out } = terminal();
  const view = { shown: false, hints: "↑↓ move · Enter open" };
  const kept = keepStartScreen(file, out, view);
  const log = logUpdate.create(out, { incremental: true });
  for (const [text, shown] of frames) {
    view.shown = shown;
    log(text);
  }
  kept.stop();
  kept.save();
}

describe("the kept start screen", () => {
  it("keeps the last start-view frame, and draws it with its status line waiting", async () => {
    const file = startScreenFile(folder(), "embedded /data/parley.db", undefined);
    runAndQuit(file, [
      [frame([" parley · alice", "│▸ loading…"], " ↑↓ move"), false],
      [LIST, true],
      [OPEN, false],
    ]);
    const { term, out, stream } = terminal();
    expect(showStartScreen(file, out)).toBe(true);
    await settled(term);
    const screen = screenText(term).split("\n");
    expect(screen.slice(0, 4)).toEqual([
      " parley · alice",
      "│▸ bob      2m",
      "│  #team    5m",
      "│  carol    1h",
    ]);
    expect(screen.at(-1)?.trimEnd()).toMatch(
      /^ ↑↓ move · Enter open +connecting… · last synced \d\d:\d\d$/,
    );
    // In the alternate screen, with the cursor hidden and home, where Ink starts.
    expect(stream.written.startsWith(`${ESC}[?1049h${ESC}[?25l`)).toBe(true);
    expect([term.buffer.active.cursorX, term.buffer.active.cursorY]).toEqual([0, 0]);
  });

  it("is taken over by Ink's log-update, which writes only what differs", async () => {
    const file = startScreenFile(folder(), "https://chat.example", "token");
    runAndQuit(file, [[LIST, true]]);
    const { term, out, stream } = terminal();
    showStartScreen(file, out);
    const before = stream.written.length;
    // Ink's first frame: the list as the kept cache has it, one row changed, online.
    const next = frame(
      [" parley · alice", "│▸ bob      1m", "│  #team    5m", "│  carol    1h"],
      ` ↑↓ move · Enter open   ${ESC}[32m● online${ESC}[39m`,
    );
    logUpdate.create(out, { incremental: true })(next);
    await settled(term);
    const reference = headlessTerminal(COLUMNS, ROWS);
    reference.write(next);
    await settled(reference);
    expect(screenText(term)).toBe(screenText(reference));
    // Not the whole frame again: the rows that did not change are not written.
    const written = stream.written.slice(before);
    expect(written).not.toContain("#team");
    expect(written).not.toContain("carol");
  });

  it("is cleared for Ink when the terminal was resized before Ink took it over", async () => {
    const file = startScreenFile(folder(), "embedded /data/parley.db", undefined);
    runAndQuit(file, [[LIST, true]]);
    const { term, out, stream } = terminal();
    showStartScreen(file, out);
    stream.columns = COLUMNS - 10;
    term.resize(COLUMNS - 10, ROWS);
    const narrow = new Output({ width: COLUMNS - 10, height: ROWS });
    narrow.write(0, 0, " parley · alice", { transformers: [] });
    const next = narrow.get().output;
    logUpdate.create(out, { incremental: true })(next);
    await settled(term);
    const reference = headlessTerminal(COLUMNS - 10, ROWS);
    reference.write(next);
    await settled(reference);
    expect(screenText(term)).toBe(screenText(reference));
  });

  it("is not drawn in another size, for another owner, after a day, or when not plain", async () => {
    const dir = folder();
    const file = startScreenFile(dir, "embedded /data/parley.db", undefined);
    runAndQuit(file, [[LIST, true]]);
    expect(showStartScreen(file, terminal(COLUMNS + 1, ROWS).out)).toBe(false);
    expect(showStartScreen(file, terminal(COLUMNS, ROWS + 1).out)).toBe(false);
    const other = startScreenFile(dir, "embedded /elsewhere/parley.db", undefined);
    writeFileSync(other.path, readFileSync(file.path));
    expect(showStartScreen(other, terminal().out)).toBe(false);
    expect(showStartScreen(file, terminal().out, Date.now() + 25 * 60 * 60 * 1000)).toBe(false);

    const kept = JSON.parse(readFileSync(file.path, "utf8")) as { frame: string };
    for (const hostile of [
      `${ESC}]52;c;aGk=${ESC}\\`,
      `${ESC}[2J`,
      "\x07",
      `${ESC}P1$r${ESC}\\`,
      `${ESC}]8;;https://x\u009b2J${ESC}\\`,
      "\u009b2J",
    ]) {
      const lines = kept.frame.split("\n");
      lines[1] = `│ ${hostile} bob`;
      writeFileSync(file.path, JSON.stringify({ ...kept, frame: lines.join("\n") }));
      const { out, stream } = terminal();
      expect(showStartScreen(file, out), JSON.stringify(hostile)).toBe(false);
      expect(stream.written).toBe("");
    }
    writeFileSync(file.path, "{ not json");
    expect(showStartScreen(file, terminal().out)).toBe(false);
    writeFileSync(file.path, JSON.stringify({ ...kept, padding: "x".repeat(5 << 20) }));
    expect(showStartScreen(file, terminal().out)).toBe(false);
  });

  it("says it was last synced when it was drawn, not at the quit", async () => {
    const file = startScreenFile(folder(), "embedded /data/parley.db", undefined);
    const drawn = new Date(2026, 10, 25, 9, 41).getTime();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(drawn);
    const { out } = terminal();
    const view = { shown: true, hints: "↑↓ move" };
    const kept = keepStartScreen(file, out, view);
    const log = logUpdate.create(out, { incremental: true });
    log(LIST);
    // A conversation opened, read for half an hour: the list kept is the one from 9:41.
    vi.setSystemTime(drawn + 30 * 60 * 1000);
    view.shown = false;
    log(OPEN);
    kept.save();
    const shown = terminal();
    expect(showStartScreen(file, shown.out)).toBe(true);
    await settled(shown.term);
    expect(screenText(shown.term)).toContain("connecting… · last synced 09:41");
  });

  it("keeps nothing when the start view was never drawn", () => {
    const file = startScreenFile(folder(), "embedded /data/parley.db", undefined);
    runAndQuit(file, [[OPEN, false]]);
    expect(showStartScreen(file, terminal().out)).toBe(false);
  });
});
