import { describe, expect, it } from "vitest";
import { parseMouse, splitMouse } from "../../src/ui/keys/mouse.ts";
import {
  backgroundReply,
  isTerminalReply,
  withoutTerminalReplies,
} from "../../src/ui/keys/terminal-replies.ts";

describe("SGR mouse reports", () => {
  it("reads wheel, press, release and drag, with or without the ESC", () => {
    expect(parseMouse("\x1b[<64;10;5M")).toEqual({ kind: "wheelUp", button: 0, x: 9, y: 4 });
    expect(parseMouse("[<65;1;1M")).toEqual({ kind: "wheelDown", button: 1, x: 0, y: 0 });
    expect(parseMouse("[<0;3;7M")).toEqual({ kind: "press", button: 0, x: 2, y: 6 });
    expect(parseMouse("[<0;3;7m")).toEqual({ kind: "release", button: 0, x: 2, y: 6 });
    expect(parseMouse("[<32;3;7M")).toEqual({ kind: "drag", button: 0, x: 2, y: 6 });
    expect(parseMouse("[<2;3;7M")?.button).toBe(2);
    expect(parseMouse("j")).toBeUndefined();
    expect(parseMouse("[A")).toBeUndefined();
  });

  it("takes the reports out of a read, keeping the keys and a report cut off at the end", () => {
    const split = splitMouse("j\x1b[<64;10;5Mk\x1b[<0;1;1M\x1b[<0;2");
    expect(split.rest).toBe("jk");
    expect(split.reports.map((r) => r.kind)).toEqual(["wheelUp", "press"]);
    expect(split.partial).toBe("\x1b[<0;2");
    expect(splitMouse("\x1b[A").rest).toBe("\x1b[A");
  });

  it("tells late terminal answers from keys", () => {
    expect(isTerminalReply("]11;rgb:0000/2b2b/3636\x07")).toBe(true);
    expect(isTerminalReply("[?62;22c")).toBe(true);
    expect(isTerminalReply("\x1b]10;rgb:ffff/ffff/ffff\x1b\\")).toBe(true);
    expect(isTerminalReply("c")).toBe(false);
    expect(isTerminalReply("[?62;22cabc")).toBe(false);
  });

  it("are the same answers the start-up query reads and takes out of what was typed", () => {
    const colour = "\x1b]11;rgb:0000/2b2b/3636\x07";
    const da1 = "\x1b[?62;22c";
    expect(backgroundReply(`ab${colour}cd`)).toEqual(["0000", "2b2b", "3636"]);
    expect(backgroundReply("\x1b]10;rgb:0000/2b2b/3636\x07")).toBeUndefined();
    expect(withoutTerminalReplies(`a${colour}b${da1}c`)).toBe("abc");
    // What the start-up query takes out, the dispatcher also refuses as keys.
    for (const reply of [colour, da1]) expect(isTerminalReply(reply)).toBe(true);
  });
});
