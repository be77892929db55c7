// parley's Output (src/ui/ink/output.ts, which keeps its caches across frames) must draw
// exactly what Ink's own Output draws. Both get the same write operations, frame after
// frame, so later frames are answered from the caches the earlier ones filled: random
// frames over hostile text, and every frame the real client draws while it is used.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import InkOutput from "ink-original/output.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PORTED_INK_VERSION } from "../../scripts/ink-plugin.ts";
import { seededRandom } from "../../src/server/demo/random.ts";
import Output from "../../src/ui/ink/output.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { ESC, INK_TEXTS } from "./ink-texts.ts";

type Transformer = (line: string, index: number) => string;
type Op =
  | { type: "write"; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: "clip"; clip: { x1?: number; x2?: number; y1?: number; y2?: number } }
  | { type: "unclip" };

function draw(OutputClass: typeof Output, width: number, height: number, ops: Op[]): string {
  const output = new OutputClass({ width, height });
  for (const op of ops) {
    if (op.type === "write") output.write(op.x, op.y, op.text, { transformers: op.transformers });
    else if (op.type === "clip") {
      output.clip({ x1: op.clip.x1, x2: op.clip.x2, y1: op.clip.y1, y2: op.clip.y2 });
    } else output.unclip();
  }
  return output.get().output;
}

const TEXTS = [
  ...INK_TEXTS,
  // One link of parley's, with an id, in coloured pieces over two rows and wide text.
  `${ESC}[36m${ESC}]8;id=pmsg_1-0;https://example.com/a?b=1${ESC}\\a wrapped${ESC}]8;;${ESC}\\${ESC}[39m\n${ESC}]8;id=pmsg_1-0;https://example.com/a?b=1${ESC}\\link 漢字${ESC}]8;;${ESC}\\ after`,
  "👍🏽 ❤️ 🇩🇪 👩‍💻 emoji",
  "e\u0301 combining, zero\u200bwidth",
  "x".repeat(130),
  "🙂".repeat(70),
  "tab\tseparated",
];

const TRANSFORMERS: Transformer[] = [
  (line) => `${ESC}[32m${line}${ESC}[39m`,
  (line, index) => (index % 2 === 0 ? line.toUpperCase() : line),
  (line) => `> ${line}`,
];

function randomFrame(random: () => number, width: number, height: number): Op[] {
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const ops: Op[] = [];
  let depth = 0;
  const count = int(1, 25);
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.15) {
      const maybe = (min: number, max: number) => (random() < 0.8 ? int(min, max) : undefined);
      ops.push({
        type: "clip",
        clip: {
          x1: maybe(-2, width),
          x2: maybe(0, width + 2),
          y1: maybe(-2, height),
          y2: maybe(0, height + 2),
        },
      });
      depth++;
    } else if (roll < 0.25 && depth > 0) {
      ops.push({ type: "unclip" });
      depth--;
    } else {
      const transformers = TRANSFORMERS.filter(() => random() < 0.2);
      ops.push({
        type: "write",
        x: int(-3, width),
        y: int(-2, height),
        text: TEXTS[int(0, TEXTS.length - 1)]!,
        transformers,
      });
    }
  }
  return ops;
}

describe("parley's Ink Output", () => {
  it("ports the Ink version that is installed", () => {
    const ink = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../node_modules/ink/package.json"), "utf8"),
    );
    expect(ink.version).toBe(PORTED_INK_VERSION);
  });

  it("draws what Ink's Output draws, over 2,000 random frames of hostile text", () => {
    const random = seededRandom(7);
    for (let frame = 0; frame < 2000; frame++) {
      const width = 1 + Math.floor(random() * 60);
      const height = 1 + Math.floor(random() * 12);
      const ops = randomFrame(random, width, height);
      const theirs = draw(InkOutput as unknown as typeof Output, width, height, ops);
      expect(draw(Output, width, height, ops), `frame ${frame}: ${JSON.stringify(ops)}`).toBe(
        theirs,
      );
    }
  });

  it("draws the same frame again from its caches", () => {
    const ops: Op[] = [
      { type: "write", x: 0, y: 0, text: TEXTS[3]!, transformers: [] },
      { type: "write", x: 4, y: 0, text: TEXTS[9]!, transformers: [] },
    ];
    const first = draw(Output, 30, 2, ops);
    expect(draw(Output, 30, 2, ops)).toBe(first);
    expect(first).toBe(draw(InkOutput as unknown as typeof Output, 30, 2, ops));
  });
});

describe("every frame of the real client", () => {
  const each = harnessEachTest();
  // Registered after the harness's: runs before the harness closes.
  afterEach(() => vi.restoreAllMocks());

  it("is drawn as Ink's Output would draw it", async () => {
    const mismatches: string[] = [];
    let frames = 0;
    const get = Output.prototype.get;
    vi.spyOn(Output.prototype, "get").mockImplementation(function (this: Output) {
      const ours = get.call(this);
      const { width, height } = this;
      const ops = (this as unknown as { operations: Op[] }).operations;
      const theirs = draw(InkOutput as unknown as typeof Output, width, height, ops);
      frames++;
      if (ours.output !== theirs) mismatches.push(`ours:\n${ours.output}\nInk's:\n${theirs}`);
      return ours;
    });
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("● online") && s.includes("│▸"), "the list");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("Enter send"), "a conversation open");
    await harness.type("hello 👍🏽 漢字 wide");
    await harness.press(KEYS.escape, "?");
    await harness.waitFor((s) => s.includes("any other key closes"), "the help");
    await harness.press(KEYS.escape, "k", "k", KEYS.tab, "j", "j", KEYS.enter);
    await harness.resize(80, 24);
    await harness.press(KEYS.escape, "k", KEYS.tab, "2");
    await harness.resize(120, 40);
    expect(frames).toBeGreaterThan(10);
    expect(mismatches).toEqual([]);
  });
});
