// The real, built client against a hostile event stream (issue 39, point 3), each shape for
// a while, held to numbers with headroom (the bounds are what an attack must not reach,
// not how fast this machine is): its resident memory, its answer to a key under the flood,
// and the requests a run of resets makes. Closing the terminal under a flood ends the
// client, and leaves no process and no socket in CLOSE-WAIT. The 20,000-message flood is
// in hostile-stream.soak.test.ts. Run `npm run build` first.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { descendants, running } from "../processes.ts";
import { until } from "../wait.ts";
import {
  commentedDataLines,
  endlessLine,
  type Hostile,
  messageFlood,
  peakOver,
  RSS_BOUND_MIB,
  resets,
  startHostile,
} from "./hostile-stream.ts";
import { hasTmux } from "./tmux.ts";

/** Sockets in CLOSE-WAIT to or from `port`, as /proc/net/tcp lists them (state 08). */
function closeWaitOn(port: number): string[] {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .slice(1)
      .filter((line) => {
        const [, local, remote, state] = line.trim().split(/\s+/);
        return state === "08" && [local, remote].some((end) => end?.endsWith(`:${hex}`));
      }),
  );
}

let hostile: Hostile | undefined;
afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
});
/** The hostile relay and its client, for this test alone. */
async function hostileForTest(): Promise<Hostile> {
  hostile = await startHostile();
  return hostile;
}

/** The same, with alice in her conversation with bob. */
async function hostileBobOpen(): Promise<Hostile> {
  const h = await hostileForTest();
  await h.openBob();
  return h;
}

describe.skipIf(!hasTmux())("the client against a hostile event stream", () => {
  for (const [name, shape] of [
    ["data lines of 64 KiB between comments", commentedDataLines],
    ["a line that never ends", endlessLine],
  ] as const) {
    it(`${name}: bounded memory, keys answered`, async () => {
      const h = await hostileForTest();
      const before = h.streams();
      h.stream(shape);
      // The client cuts each such stream at its bound and opens another, after a back-off.
      await until(() => h.streams() >= before + 3, "three hostile streams", { timeoutMs: 30_000 });
      const peak = await peakOver(8_000, h.rssMiB);
      await h.answersKeys(`after ${name}`);
      console.info(`${name}: client peak RSS ${peak.toFixed(0)} MiB, ${h.streams()} streams`);
      expect(peak).toBeLessThan(RSS_BOUND_MIB);
    }, 90_000);
  }

  it("2,000 resets in 10 s: a few refetches, not one each", async () => {
    const h = await hostileBobOpen();
    const before = h.streams();
    h.stream(resets(2_000, 10_000));
    await until(() => h.streams() > before, "the stream of resets");
    const from = h.relay.seen.length;
    const peak = await peakOver(12_000, h.rssMiB);
    await h.answersKeys("after the resets");
    const made = h.relay.seen.slice(from).filter((r) => !r.url.startsWith("/v1/events"));
    const paths = new Map<string, number>();
    for (const r of made)
      paths.set(r.url.split("?")[0]!, (paths.get(r.url.split("?")[0]!) ?? 0) + 1);
    console.info(
      `resets: ${made.length} requests in 12 s (${[...paths].map(([p, n]) => `${n} ${p}`).join(", ")}), peak RSS ${peak.toFixed(0)} MiB`,
    );
    // Resets are coalesced (what is shown is fetched again at most every 5 s, some fifteen
    // requests): 2,000 resets made 1,299 requests before, and one each would be 2,000.
    expect(made.length).toBeLessThan(150);
    expect(h.streams()).toBe(before + 1);
    expect(peak).toBeLessThan(RSS_BOUND_MIB);
  }, 90_000);

  it("closing its terminal under a flood ends it: no process, no CLOSE-WAIT left", async () => {
    const h = await hostileBobOpen();
    const before = h.streams();
    // Written only as fast as the client reads them (the relay waits for drain): once
    // thousands are through, the client is under the flood, whatever its screen shows yet
    // (a loaded client may have turned the first of them into one refetch, MAX_WAITING).
    const sent = { events: 0 };
    h.stream(messageFlood(h.bob, 1_000_000, sent));
    await until(() => h.streams() > before, "the flood's stream");
    await until(() => sent.events > 20_000, "the flood under way", { timeoutMs: 30_000 });
    const inPane = descendants(Number(h.pane.info("#{pane_pid}")));
    expect(inPane).toContain(h.pid);
    // tmux's session ends: the terminal closes under the client, as a window closed would.
    h.pane.tmux("kill-server");
    await until(() => inPane.every((pid) => !running(pid)), "every process of the pane gone");
    // Nor a connection one side closed and the other did not (the client's sockets went
    // with it; the relay's own close once they have).
    const closeWait = () => closeWaitOn(h.relay.port).join("\n");
    await until(() => closeWait() === "", "no socket in CLOSE-WAIT", {
      detail: closeWait,
    });
  }, 90_000);
});
