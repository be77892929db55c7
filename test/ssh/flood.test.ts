// One `parley ssh` user against the others on its worker (the built CLI, one worker thread,
// ssh2 clients): a storm of window-changes and a paste of 1 MiB sent as plain keys, in one
// session, while another types. The storm is drawn a few frames a second, at its last
// size; the paste is cut and said so; the other session's keys keep echoing, and the
// server's memory stays put. The echo times are printed, for the record, never asserted.
import { describe, expect, it } from "vitest";
import { RESIZE_EVERY_MS } from "../../src/ssh/sessions.ts";
import { until } from "../wait.ts";
import {
  built,
  builtSshForFile,
  connect,
  rssMiB,
  type Shell,
  shell,
  typeIntoComposer,
} from "./built.ts";

const demo = builtSshForFile(["--demo", "--threads", "1"]);

/** Synchronized-update frames (Ink wraps each frame in them) in `text`. */
const frames = (text: string) => text.split("\x1b[?2026h").length - 1;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Milliseconds from each of 20 letters typed (from `first` on) to its echo on screen. */
async function echoTimes(s: Shell, first: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const mark = String.fromCharCode(first + i);
    const count = () => s.screen().split(mark).length;
    const before = count();
    const sent = Date.now();
    s.channel.write(mark);
    await until(() => count() > before, `${mark} echoed`);
    times.push(Date.now() - sent);
  }
  return times;
}

describe.skipIf(!built)("one session flooding its worker", () => {
  it("is drawn a few frames a second, its paste cut and said, its neighbour answered", async () => {
    const { server } = demo;
    const attacker = await shell(await connect(server.port, "alice"));
    const victim = await shell(await connect(server.port, "bob"));
    await typeIntoComposer(attacker, "storm");
    await typeIntoComposer(victim, "calm");
    const rssBefore = rssMiB(server.child.pid!);
    const quietMs = await echoTimes(victim, 0x61);

    // A window dragged about for a while: 3,000 window-changes, the last one the size the
    // attacker's terminal (120x40) has, so its screen can be read after.
    const framesBefore = frames(attacker.text());
    const bytesBefore = attacker.bytes();
    const stormStart = Date.now();
    for (let i = 0; i < 3000; i++) attacker.channel.setWindow(40 + (i % 80), 100 + (i % 60), 0, 0);
    attacker.channel.setWindow(40, 120, 0, 0);
    let lastBytes = attacker.bytes();
    let lastChange = Date.now();
    await until(() => {
      if (attacker.bytes() !== lastBytes) {
        lastBytes = attacker.bytes();
        lastChange = Date.now();
      }
      return Date.now() - lastChange > 1000;
    }, "the storm's frames to stop");
    const stormMs = lastChange - stormStart;
    const stormFrames = frames(attacker.text()) - framesBefore;
    expect(attacker.bytes()).toBeGreaterThan(bytesBefore);
    // One size per RESIZE_EVERY_MS while the changes came (each drawn in a frame or two),
    // not one per change; and the last size drawn.
    expect(stormFrames).toBeLessThanOrEqual(2 * Math.ceil(stormMs / RESIZE_EVERY_MS) + 4);
    await attacker.waitFor("storm", "the composer after the storm");

    // A paste of 1 MiB as plain keys (no bracketed paste), while the victim types.
    const chunk = "a".repeat(16 * 1024);
    for (let i = 0; i < 64; i++) attacker.channel.write(chunk);
    const echoMs = await echoTimes(victim, 0x41);
    await until(() => attacker.screen().includes("✗ Input cut"), "the cut said to the attacker");
    const rssAfter = rssMiB(server.child.pid!);
    expect(rssAfter - rssBefore).toBeLessThan(100);
    console.log(
      `victim echo before: p50 ${percentile(quietMs, 0.5)} ms, p99 ${percentile(quietMs, 0.99)} ms; ` +
        `resize storm: 3,001 window-changes, ${stormFrames} frames over ${stormMs} ms; ` +
        `1 MiB paste as keys: victim echo p50 ${percentile(echoMs, 0.5)} ms, p99 ${percentile(echoMs, 0.99)} ms ` +
        `(${echoMs.join(", ")}); server RSS ${rssBefore.toFixed(0)} -> ${rssAfter.toFixed(0)} MiB`,
    );
    attacker.channel.close();
    victim.channel.close();
  }, 120_000);
});
