import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import {
  backgroundKind,
  parseBackgroundReply,
  queryBackground,
} from "../../src/client/background.ts";
import { applyGraphemeClusters } from "../../src/client/grapheme-mode.ts";
import { type GraphemeClusters, graphemeClustersReply } from "../../src/client/graphemes.ts";
import { setWidthMode, widthMode } from "../../src/ui/ink/string-width.ts";
import { isTerminalReply, withoutTerminalReplies } from "../../src/ui/keys/terminal-replies.ts";

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

function ask(
  answer: string | null,
  timeoutMs = 100,
  signal?: AbortSignal,
  onGraphemeClusters?: (answer: GraphemeClusters) => void,
) {
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
    result: queryBackground(stdin as never, stdout as never, {
      timeoutMs,
      signal,
      onGraphemeClusters,
    }),
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

  it("reads the DA1 answer that comes after the background in a later read", async () => {
    const stdin = new FakeTty();
    const stdout = {
      write: () => {
        setTimeout(() => stdin.emit("data", Buffer.from("\x1b]11;rgb:0000/0000/0000\x07")), 5);
        setTimeout(() => stdin.emit("data", Buffer.from("\x1b[?1;2c")), 30);
        return true;
      },
    };
    const result = queryBackground(stdin as never, stdout as never, { timeoutMs: 5_000 });
    expect(await result).toBe("dark");
    // Both answers were read here: neither is handed on as keys, nor left for the shell.
    expect(stdin.unshifted).toEqual([]);
    expect(stdin.listenerCount("data")).toBe(0);
  });

  it("asks no background when the theme is named, and still reads DA1", async () => {
    const stdin = new FakeTty();
    const written: string[] = [];
    const stdout = {
      write: (s: string) => {
        written.push(s);
        setTimeout(() => stdin.emit("data", Buffer.from("\x1b[?1;2c")), 5);
        return true;
      },
    };
    const result = queryBackground(stdin as never, stdout as never, {
      timeoutMs: 5_000,
      askBackground: false,
    });
    expect(await result).toBeUndefined();
    expect(written.join("")).toBe("\x1b[c");
    expect(stdin.unshifted).toEqual([]);
  });

  it("keeps the background said by a terminal whose DA1 answer never comes", async () => {
    expect(await ask("\x1b]11;rgb:ffff/ffff/ffff\x07", 50).result).toBe("light");
  });
});

describe("whether the terminal clusters graphemes (DECRQM 2027)", () => {
  afterEach(() => setWidthMode("code-points"));

  it("reads the mode's report: set, reset (available), unknown or permanently reset", () => {
    expect(graphemeClustersReply("\x1b[?2027;1$y")).toBe("on");
    expect(graphemeClustersReply("\x1b[?2027;3$y")).toBe("on");
    expect(graphemeClustersReply("\x1b[?2027;2$y")).toBe("available");
    expect(graphemeClustersReply("\x1b[?2027;0$y")).toBe("unsupported");
    expect(graphemeClustersReply("\x1b[?2027;4$y")).toBe("unsupported");
    expect(graphemeClustersReply("\x1b[?2026;2$y")).toBeUndefined();
    expect(graphemeClustersReply("\x1b[?62;22c")).toBeUndefined();
  });

  it("is asked before DA1 and read with the background, keys typed meanwhile kept", async () => {
    const said: GraphemeClusters[] = [];
    const q = ask(
      "j\x1b]11;rgb:0000/0000/0000\x07\x1b[?2027;2$yk\x1b[?62;22c",
      5_000,
      undefined,
      (answer) => said.push(answer),
    );
    expect(await q.result).toBe("dark");
    expect(q.written.join("")).toBe("\x1b]11;?\x07\x1b[?2027$p\x1b[c");
    expect(said).toEqual(["available"]);
    expect(Buffer.concat(q.stdin.unshifted).toString("latin1")).toBe("jk");
  });

  it("waits for DA1, not the timeout, when the terminal does not know the mode", async () => {
    const said: GraphemeClusters[] = [];
    const started = Date.now();
    const q = ask("\x1b[?62;22c", 5_000, undefined, (answer) => said.push(answer));
    expect(await q.result).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(said).toEqual([]);
  });

  it("turns clustering on when it is available, measures by grapheme, and off at the end", () => {
    const written: string[] = [];
    const stdout = { write: (s: string) => written.push(s) } as never;
    const restore = applyGraphemeClusters("available", stdout);
    expect(widthMode()).toBe("clusters");
    expect(written).toEqual(["\x1b[?2027h"]);
    restore();
    expect(written).toEqual(["\x1b[?2027h", "\x1b[?2027l"]);
  });

  it("leaves a terminal that has it on as it is, and measures code points without it", () => {
    const written: string[] = [];
    const stdout = { write: (s: string) => written.push(s) } as never;
    applyGraphemeClusters("on", stdout)();
    expect(widthMode()).toBe("clusters");
    for (const answer of ["unsupported", undefined] as const) {
      applyGraphemeClusters(answer, stdout)();
      expect(widthMode()).toBe("code-points");
    }
    expect(written).toEqual([]);
  });

  it("never takes a late report for keys", () => {
    expect(isTerminalReply("\x1b[?2027;2$y")).toBe(true);
    expect(isTerminalReply("[?2027;0$y")).toBe(true);
    expect(withoutTerminalReplies("a\x1b[?2027;4$yb")).toBe("ab");
  });
});
