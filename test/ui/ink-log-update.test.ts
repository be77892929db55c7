// parley's log-update (src/ui/ink/log-update.ts) writes only the cells that changed from
// one frame to the next. Whatever it writes, the terminal must end up showing exactly the
// frame, as if it had been written whole: random sequences of frames drawn by Ink's Output
// go through it into a terminal emulator, and every screen is compared cell by cell with
// a second emulator that got each frame whole. The cursor must be where it was asked to be.
import type xterm from "@xterm/headless";
import { afterEach, describe, expect, it, vi } from "vitest";
import { seededRandom } from "../../src/server/demo/random.ts";
import logUpdate from "../../src/ui/ink/log-update.ts";
import Output from "../../src/ui/ink/output.ts";
import { headlessTerminal } from "../virtual-terminal.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { ESC, INK_TEXTS } from "./ink-texts.ts";

const TEXTS = [
  ...INK_TEXTS,
  "x",
  `${ESC}[38;5;117m│${ESC}[39m`,
  "👍 thumbs",
  "x".repeat(70),
  "漢".repeat(40),
];

type Op = { x: number; y: number; text: string };

function draw(width: number, height: number, ops: Op[]): string {
  const output = new Output({ width, height });
  // Ink's layout keeps every write inside the screen; so does this clip.
  output.clip({ x1: 0, x2: width, y1: 0, y2: height });
  for (const op of ops) output.write(op.x, op.y, op.text, { transformers: [] });
  output.unclip();
  return output.get().output;
}

const settled = (term: xterm.Terminal) => new Promise<void>((resolve) => term.write("", resolve));

/** Every cell: its text, width and looks. */
function cells(term: xterm.Terminal): string[] {
  const buffer = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(y)!;
    const row: string[] = [];
    for (let x = 0; x < term.cols; x++) {
      const c = line.getCell(x)!;
      row.push(
        [
          c.getChars() || " ",
          c.getWidth(),
          c.getFgColorMode(),
          c.getFgColor(),
          c.getBgColorMode(),
          c.getBgColor(),
          c.isBold(),
          c.isDim(),
          c.isInverse(),
        ].join(","),
      );
    }
    rows.push(row.join("|"));
  }
  return rows;
}

/** A stream as Ink's log-update sees a terminal: its size, and what is written to it. */
function streamOn(term: xterm.Terminal) {
  const stream = {
    isTTY: true,
    columns: term.cols,
    rows: term.rows,
    written: 0,
    write(data: string) {
      stream.written += Buffer.byteLength(data);
      term.write(data);
      return true;
    },
  };
  return stream;
}

describe("parley's log-update", () => {
  it("leaves the screen as the whole frame would, over 1,500 random changes", async () => {
    const random = seededRandom(23);
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    for (let sequence = 0; sequence < 30; sequence++) {
      const width = int(8, 60);
      const height = int(2, 12);
      const ours = headlessTerminal(width, height);
      const reference = headlessTerminal(width, height);
      const stream = streamOn(ours);
      const log = logUpdate.create(stream as unknown as NodeJS.WriteStream, { incremental: true });
      const ops: Op[] = [];
      const randomOp = () => ({
        x: int(-2, width),
        y: int(-1, height),
        text: TEXTS[int(0, TEXTS.length - 1)]!,
      });
      for (let i = int(0, 8); i > 0; i--) ops.push(randomOp());
      for (let step = 0; step < 50; step++) {
        const roll = random();
        if (roll < 0.4 || ops.length === 0) ops.push(randomOp());
        else if (roll < 0.7) ops.splice(int(0, ops.length - 1), 1);
        else ops[int(0, ops.length - 1)]!.x += int(-1, 1);
        // Mostly full-screen frames, as parley draws them; Ink ends a shorter one with "\n".
        const frame =
          random() < 0.1 ? `${draw(width, height - 1, ops)}\n` : draw(width, height, ops);
        const cursor = random() < 0.5 ? { x: int(0, width - 1), y: int(0, height - 1) } : undefined;
        log.setCursorPosition(cursor);
        log(frame);
        reference.write(`${ESC}[H${ESC}[2J${frame}`);
        await Promise.all([settled(ours), settled(reference)]);
        const context = `sequence ${sequence}, step ${step}: ${JSON.stringify(frame)}`;
        expect(cells(ours), context).toEqual(cells(reference));
        if (cursor) {
          expect(
            [ours.buffer.active.cursorX, ours.buffer.active.cursorY],
            `${context}: the cursor`,
          ).toEqual([cursor.x, cursor.y]);
        }
      }
      ours.dispose();
      reference.dispose();
    }
  });

  it("writes one typed character, and nothing to move the cursor it advanced", async () => {
    const term = headlessTerminal(40, 5);
    const stream = streamOn(term);
    const log = logUpdate.create(stream as unknown as NodeJS.WriteStream, { incremental: true });
    const frame = (typed: string) =>
      draw(40, 5, [
        { x: 0, y: 0, text: `${ESC}[1m#team${ESC}[22m` },
        { x: 0, y: 3, text: `${ESC}[38;5;117m│${ESC}[39m ${typed}` },
      ]);
    log.setCursorPosition({ x: 2, y: 3 });
    log(frame(""));
    for (const [i, typed] of ["h", "he", "hel"].entries()) {
      const before = stream.written;
      log.setCursorPosition({ x: 3 + i, y: 3 });
      log(frame(typed));
      expect(stream.written - before).toBe(1);
      await settled(term);
    }
    expect(term.buffer.active.getLine(3)!.translateToString(true)).toBe("│ hel");
    expect([term.buffer.active.cursorX, term.buffer.active.cursorY]).toEqual([5, 3]);
  });
});

describe("every frame of the real client", () => {
  const each = harnessEachTest();
  // Registered after the harness's: runs before the harness closes.
  afterEach(() => vi.restoreAllMocks());

  it("leaves the screen as the whole frame would", async () => {
    const frames: string[] = [];
    const create = logUpdate.create;
    vi.spyOn(logUpdate, "create").mockImplementation((stream, options) => {
      const log = create(stream, options);
      const wrapped = Object.assign((text: string) => {
        frames.push(text);
        return log(text);
      }, log);
      return wrapped as typeof log;
    });
    const harness = await each.start();
    const reference = headlessTerminal(120, 40);
    const check = async (what: string) => {
      // The screen and the frame it should show, read together: data arriving meanwhile
      // (contacts' names, say) draws a newer frame, so read again until none came between.
      let frame: string | undefined;
      let screen: string;
      do {
        await harness!.press();
        frame = frames.at(-1);
        // Every frame written so far is on the terminal after this.
        await harness!.press();
        screen = harness!.screen();
      } while (frames.at(-1) !== frame);
      reference.write(`${ESC}[H${ESC}[2J${frame}`);
      await settled(reference);
      expect(screen, what).toBe(
        Array.from({ length: 40 }, (_, y) =>
          reference.buffer.active.getLine(y)!.translateToString(true),
        ).join("\n"),
      );
    };
    await harness.waitFor((s) => s.includes("● online") && s.includes("│▸"), "the list");
    await check("the list");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("Enter send"), "a conversation open");
    await check("a conversation open");
    await harness.type("hello 👍🏽 漢字 wide");
    await check("typed");
    await harness.press(KEYS.escape, "g");
    await check("g");
    await harness.press("k", "k", KEYS.tab, "j", "j", KEYS.enter);
    await check("moved");
    reference.dispose();
  });
});
