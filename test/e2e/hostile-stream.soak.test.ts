// The long shape of issue 39, point 3 (`npm run test:soak`): 20,000 valid message.created
// events for the conversation open on the real, built client's screen, as fast as it takes
// them. It must keep its memory bounded, answer a key during the flood and after it, and
// end showing the last (or, if it fell MAX_WAITING behind, what one refetch shows).
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../wait.ts";
import {
  type FloodProgress,
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
    // The relay writes only as fast as the client reads, so events written are events read.
    const sent: FloodProgress = { events: 0 };
    h.stream(messageFlood(h.bob, 20_000, sent));
    await until(() => h.streams() > before, "the flood's stream");
    await until(() => sent.events > 1_000, "the flood under way", { timeoutMs: 60_000 });
    // A key during the flood, while its memory is watched.
    const [peak] = await Promise.all([
      peakOver(10_000, h.rssMiB),
      h.answersKeys("during the flood"),
    ]);
    await until(() => sent.events === 20_000, "all 20,000 read", { timeoutMs: 300_000 });
    // A client loaded enough to hold more than MAX_WAITING unapplied drops them for one
    // refetch of what is shown, from the real server, which never had them: the screen then
    // keeps what it had (a 304) instead of the last flood message.
    const refetched = () =>
      h.relay.seen.some(
        (r) =>
          r.at > (sent.pastMaxWaitingAt ?? Number.POSITIVE_INFINITY) &&
          r.url.startsWith("/v1/messages?") &&
          r.url.includes(`conversation_id=${h.bob}`),
      );
    await h.pane.waitFor(
      (s) => s.includes("flood 20000") || refetched(),
      "the last message, or the refetch that replaces the flood",
      120_000,
    );
    await h.answersKeys("after the flood");
    const end = await peakOver(2_000, h.rssMiB);
    console.info(
      `20,000 messages: through in ${((Date.now() - started) / 1000).toFixed(0)} s, ${refetched() ? "dropped for a refetch" : "all shown"}, peak RSS ${Math.max(peak, end).toFixed(0)} MiB`,
    );
    expect(Math.max(peak, end)).toBeLessThan(RSS_BOUND_MIB);
  }, 400_000);
});
