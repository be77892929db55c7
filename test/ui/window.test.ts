// The message pane's windowing and scrolling, by line (pure).
import { describe, expect, it } from "vitest";
import {
  anchorForTop,
  endAnchor,
  type Geometry,
  move,
  type Position,
  reveal,
  scrollLines,
  viewportAt,
} from "../../src/ui/messages/window.ts";

const geometry = (heights: number[], height: number): Geometry => ({
  count: heights.length,
  height,
  heightOf: (i) => heights[i]!,
});

describe("message windowing", () => {
  const g = geometry([3, 1, 2, 4, 1, 1, 2], 5);

  it("fills the pane upwards from the bottom line and clips the top item", () => {
    expect(viewportAt({ bottom: 6, clip: 0 }, g)).toEqual({
      top: 3,
      bottom: 6,
      clipTop: 3,
      clipBottom: 0,
    });
    expect(viewportAt({ bottom: 3, clip: 2 }, g)).toEqual({
      top: 1,
      bottom: 3,
      clipTop: 0,
      clipBottom: 2,
    });
  });

  it("scrolls by lines, never past the first or the last", () => {
    expect(scrollLines(endAnchor(g), -1, g)).toEqual({ bottom: 6, clip: 1 });
    expect(scrollLines(endAnchor(g), -2, g)).toEqual({ bottom: 5, clip: 0 });
    expect(scrollLines(endAnchor(g), 3, g)).toEqual(endAnchor(g));
    expect(scrollLines(endAnchor(g), -100, g)).toEqual(anchorForTop(0, 0, g));
    expect(viewportAt(anchorForTop(0, 0, g), g)).toMatchObject({ top: 0, clipTop: 0 });
  });

  it("shows a selection with the least movement", () => {
    const end = endAnchor(g);
    expect(reveal(5, end, g)).toEqual(end);
    expect(viewportAt(reveal(1, end, g), g)).toMatchObject({ top: 1, clipTop: 0 });
  });

  it("does work proportional to what is visible, not to the history", () => {
    let calls = 0;
    viewportAt(
      { bottom: 9_999, clip: 0 },
      {
        count: 10_000,
        height: 30,
        heightOf: () => {
          calls++;
          return 2;
        },
      },
    );
    expect(calls).toBe(15);
  });
});

describe("reading a message taller than the pane", () => {
  // A short message, a message of 12 lines, a short one; a pane of 4 lines.
  const g = geometry([2, 12, 2], 4);
  const press = (from: Position, ...keys: Parameters<typeof move>[1][]) =>
    keys.reduce((p, k) => move(p, k, g), from);
  const bottomLine = (p: Position) => {
    let line = -p.anchor.clip;
    for (let i = 0; i <= p.anchor.bottom; i++) line += g.heightOf(i);
    return line; // lines from the start to the bottom of the view
  };

  it("moves up through its lines before the message above", () => {
    const end: Position = { selected: 2, anchor: endAnchor(g) };
    let p = press(end, "up");
    expect(p.selected).toBe(1);
    expect(bottomLine(p)).toBe(16); // its last lines show, above the message below
    for (let i = 0; i < 10; i++) {
      const before = bottomLine(p);
      p = press(p, "up");
      expect(p.selected).toBe(1);
      expect(bottomLine(p)).toBe(before - 1);
    }
    expect(viewportAt(p.anchor, g)).toMatchObject({ top: 1, clipTop: 0 });
    expect(press(p, "up").selected).toBe(0);
  });

  it("moves down through its lines, from its first", () => {
    let p = press({ selected: 0, anchor: anchorForTop(0, 0, g) }, "down");
    expect(p.selected).toBe(1);
    expect(bottomLine(p)).toBe(4); // its first lines show, under the message above
    for (let i = 0; i < 10; i++) {
      const before = bottomLine(p);
      p = press(p, "down");
      expect(bottomLine(p)).toBe(before + 1);
    }
    expect(p).toEqual({ selected: 1, anchor: { bottom: 1, clip: 0 } });
    expect(press(p, "down").selected).toBe(2);
  });

  it("pages by a pane less a line, keeping the tall message selected", () => {
    const start: Position = { selected: 1, anchor: { bottom: 1, clip: 0 } };
    const p = press(start, "pageUp");
    expect(p.selected).toBe(1);
    expect(bottomLine(p)).toBe(bottomLine(start) - 3);
    expect(press(p, "pageDown")).toEqual(start);
    expect(press({ selected: 0, anchor: anchorForTop(0, 0, g) }, "pageUp").selected).toBe(0);
    expect(press(start, "last")).toEqual({ selected: 2, anchor: endAnchor(g) });
  });
});
