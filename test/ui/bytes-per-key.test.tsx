// What the real client writes to the terminal for one key (issue 23): over SSH on a slow
// link, bytes are latency. A printable key in the composer costs the character (and at
// most one cursor move): the terminal's own cursor is where the composer types, and only
// the cells that changed are written. Moving the selection one row costs a small part of
// a full redraw. Byte counts do not depend on the machine's speed; the median of a few
// keys leaves out one that shares its frame with a poll's change (a "3m" turning "4m").
import { describe, expect, it } from "vitest";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import { openFirst } from "./helpers.ts";

const each = harnessEachTest();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** Bytes written for each key, once its effect shows. */
async function costs(h: Harness, keys: string[], shown: (screen: string, i: number) => boolean) {
  const bytes: number[] = [];
  for (const [i, key] of keys.entries()) {
    const before = h.bytes();
    await h.press(key);
    await h.waitFor((s) => shown(s, i), `key ${i + 1}'s frame`);
    bytes.push(h.bytes() - before);
  }
  return bytes;
}

describe("bytes written per key", () => {
  it("a printable key in the composer costs at most 32 bytes", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("● online"), "the list");
    await openFirst(harness, "#team");
    await harness.type("h");
    await harness.waitFor((s) => s.includes("│ h "), "the first character");
    const typed = "ello, world";
    const bytes = await costs(harness, [...typed], (s, i) =>
      s.includes(`h${typed.slice(0, i + 1)} `),
    );
    expect(median(bytes), `bytes per key: ${bytes.join(", ")}`).toBeLessThanOrEqual(32);
    // The terminal's cursor stands after the text, and is shown.
    const line = harness
      .screen()
      .split("\n")
      .findIndex((row) => row.includes("hello, world"));
    expect(harness.written().endsWith("\x1b[?25l")).toBe(false);
    expect(line).toBeGreaterThan(0);
  });

  it("moving the selection a row in the messages costs under a tenth of a full redraw", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("● online"), "the list");
    await openFirst(harness, "#team");
    const composing = harness.screen();
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => s !== composing, "the messages focused");
    const before = harness.bytes();
    await harness.press(KEYS.ctrlL);
    await harness.waitFor(() => harness!.bytes() > before, "a full redraw");
    await harness.press();
    const redraw = harness.bytes() - before;
    const selected = () => harness!.screen();
    const moves: number[] = [];
    for (const key of ["k", "k", "j"]) {
      const at = harness.bytes();
      const screen = selected();
      await harness.press(key);
      await harness.waitFor((s) => s !== screen, `the selection to move (${key})`);
      moves.push(harness.bytes() - at);
    }
    expect(median(moves), `moves ${moves.join(", ")} B, redraw ${redraw} B`).toBeLessThan(
      redraw / 10,
    );
  });
});
