import { describe, expect, it } from "vitest";
import { isTerminalReply, parseMouse, splitMouse } from "../../src/ui/keys/mouse.ts";

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
    expect(isTerminalReply("c")).toBe(false);
  });
});
