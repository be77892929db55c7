import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import {
  backgroundKind,
  parseBackgroundReply,
  queryBackground,
} from "../../src/client/background.ts";

class FakeTty extends EventEmitter {
  isTTY = true;
  isRaw = false;
  setRawMode(on: boolean) {
    this.isRaw = on;
  }
  unshifted: Buffer[] = [];
  resume() {}
  pause() {}
  unshift(chunk: Buffer) {
    this.unshifted.push(chunk);
  }
}

function ask(answer: string | null, timeoutMs = 100, signal?: AbortSignal) {
  const stdin = new FakeTty();
  const written: string[] = [];
  const stdout = {
    write: (s: string) => {
      written.push(s);
      if (answer !== null) setTimeout(() => stdin.emit("data", Buffer.from(answer)), 5);
      return true;
    },
  };
  return {
    stdin,
    written,
    result: queryBackground(stdin as never, stdout as never, { timeoutMs, signal }),
  };
}

describe("the terminal's background (OSC 11)", () => {
  it("reads the answer in any digit count and either terminator", () => {
    expect(parseBackgroundReply("\x1b]11;rgb:ffff/ffff/ffff\x07")).toEqual([255, 255, 255]);
    expect(parseBackgroundReply("\x1b]11;rgb:00/2b/36\x1b\\")).toEqual([0, 43, 54]);
    expect(parseBackgroundReply("\x1b]11;rgb:fdfd/f6f6/e3e3\x07")).toEqual([253, 246, 227]);
    expect(parseBackgroundReply("garbage")).toBeUndefined();
  });

  it("tells light from dark", () => {
    expect(backgroundKind([255, 255, 255])).toBe("light");
    expect(backgroundKind([253, 246, 227])).toBe("light");
    expect(backgroundKind([0, 43, 54])).toBe("dark");
    expect(backgroundKind([0, 0, 0])).toBe("dark");
  });

  it("asks, reads the answer in raw mode and gives raw mode back", async () => {
    const q = ask("\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c");
    expect(await q.result).toBe("light");
    expect(q.written.join("")).toBe("\x1b]11;?\x07\x1b[c");
    expect(q.stdin.isRaw).toBe(false);
    expect(q.stdin.listenerCount("data")).toBe(0);
  });

  it("stops at the device attributes answer of a terminal that does not say, and times out on silence", async () => {
    // Waiting out the minute would end the test by its time-out: the answer ended the wait.
    expect(await ask("\x1b[?1;2c", 60_000).result).toBeUndefined();
    expect(await ask(null, 50).result).toBeUndefined();
  });

  it("hands keys typed while it waited back to stdin, without the answers", async () => {
    const q = ask("j\x1b]11;rgb:0000/0000/0000\x07k\x1b[?62;22c");
    expect(await q.result).toBe("dark");
    // The DA1 answer came after the one that settled it, in the same chunk: not a key either.
    expect(Buffer.concat(q.stdin.unshifted).toString("latin1")).toBe("jk");
  });

  it("stops when told, and gives raw mode back", async () => {
    const stop = new AbortController();
    const q = ask(null, 5_000, stop.signal);
    stop.abort();
    expect(await q.result).toBeUndefined();
    expect(q.stdin.isRaw).toBe(false);
    expect(q.stdin.listenerCount("data")).toBe(0);
  });
});
