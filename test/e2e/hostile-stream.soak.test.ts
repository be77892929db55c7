// The long shape of issue 39, point 3 (`npm run test:soak`): 20,000 valid message.created
// events for the conversation open on the real, built client's screen, as fast as it takes
// them. It must keep its memory bounded, answer a key during the flood, and show the last.
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../wait.ts";
import {
  type Hostile,
  messageFlood,
  peakOver,
  RSS_BOUND_MIB,
  startHostile,
} from "./hostile-stream.ts";
import { hasTmux } from "./tmux.ts";

let hostile: Hostile | undefined;
afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
});

describe.skipIf(!hasTmux())("the client against a flood of messages", () => {
  it("20,000 message.created for the open conversation: bounded, keys answered", async () => {
    hostile = await startHostile();
    const h = hostile;
    await h.openBob();
    const before = h.streams();
    const started = Date.now();
    h.stream(messageFlood(h.bob, 20_000));
    await until(() => h.streams() > before, "the flood's stream");
    await h.pane.waitFor((s) => s.includes("flood "), "the flood on screen", 60_000);
    // A key during the flood, while its memory is watched.
    const [peak] = await Promise.all([
      peakOver(10_000, h.rssMiB),
      h.answersKeys("during the flood"),
    ]);
    await h.pane.waitFor((s) => s.includes("flood 20000"), "the last message", 300_000);
    const end = await peakOver(2_000, h.rssMiB);
    console.info(
      `20,000 messages: shown in ${((Date.now() - started) / 1000).toFixed(0)} s, peak RSS ${Math.max(peak, end).toFixed(0)} MiB`,
    );
    expect(Math.max(peak, end)).toBeLessThan(RSS_BOUND_MIB);
  }, 400_000);
});
