// Windowing and scrolling for the message pane, by line: which items are on screen, and
// how the view and the selection move. A view is pinned by its bottom line (an item and
// how many of its lines hide below the pane), so a message taller than the pane can be
// read line by line, and nothing is ever out of reach. Pure; work is proportional to
// what is visible or moved over, never to the length of the history.

/** The items laid out: how many, the pane's height, and each item's line count. */
export type Geometry = { count: number; height: number; heightOf: (i: number) => number };

/** Where the view stands: its bottom line is `clip` lines above the end of item `bottom`. */
export type Anchor = { bottom: number; clip: number };

export type Viewport = {
  /** Index of the first (topmost, possibly clipped) visible item. */
  top: number;
  /** Index of the last (bottommost, possibly clipped) visible item. */
  bottom: number;
  /** Lines of the top item hidden above the pane. */
  clipTop: number;
  /** Lines of the bottom item hidden below the pane. */
  clipBottom: number;
};

/** The selected item and the view: what a key in the pane changes. */
export type Position = { selected: number; anchor: Anchor };

export type Move = "up" | "down" | "pageUp" | "pageDown" | "halfUp" | "halfDown" | "first" | "last";

export function viewportAt(anchor: Anchor, g: Geometry): Viewport {
  const { bottom, clip } = anchor;
  let used = g.heightOf(bottom) - clip;
  let top = bottom;
  for (let i = bottom - 1; i >= 0 && used < g.height; i--) {
    used += g.heightOf(i);
    top = i;
  }
  return { top, bottom, clipTop: Math.max(0, used - g.height), clipBottom: clip };
}

export const endAnchor = (g: Geometry): Anchor => ({ bottom: Math.max(0, g.count - 1), clip: 0 });

export const isEnd = (anchor: Anchor, g: Geometry): boolean =>
  anchor.bottom >= g.count - 1 && anchor.clip === 0;

/** The view whose top line is line `line` of item `index` (the end, if too little follows). */
export function anchorForTop(index: number, line: number, g: Geometry): Anchor {
  const need = g.height + line;
  let used = 0;
  for (let i = index; i < g.count; i++) {
    used += g.heightOf(i);
    if (used >= need) return { bottom: i, clip: used - need };
  }
  return endAnchor(g);
}

/** The view moved by `delta` lines (negative: up), never past the first or the last line. */
export function scrollLines(anchor: Anchor, delta: number, g: Geometry): Anchor {
  let { bottom } = anchor;
  let clip = Math.min(anchor.clip, g.heightOf(bottom) - 1) - delta;
  while (clip >= g.heightOf(bottom) && bottom > 0) {
    clip -= g.heightOf(bottom);
    bottom--;
  }
  while (clip < 0 && bottom < g.count - 1) {
    bottom++;
    clip += g.heightOf(bottom);
  }
  if (clip < 0) return endAnchor(g);
  const moved = { bottom, clip: Math.min(clip, g.heightOf(bottom) - 1) };
  // Above the first line there is nothing to show: the first line stays at the top.
  const view = viewportAt(moved, g);
  const shown = linesBetween(view, g);
  return view.top === 0 && shown < g.height ? anchorForTop(0, 0, g) : moved;
}

function linesBetween(view: Viewport, g: Geometry): number {
  let lines = -view.clipTop - view.clipBottom;
  for (let i = view.top; i <= view.bottom; i++) lines += g.heightOf(i);
  return lines;
}

const isVisible = (i: number, v: Viewport) => i >= v.top && i <= v.bottom;
const topHidden = (i: number, v: Viewport) => i < v.top || (i === v.top && v.clipTop > 0);
const bottomHidden = (i: number, v: Viewport) =>
  i > v.bottom || (i === v.bottom && v.clipBottom > 0);

/**
 * The view that shows item `index` with the least movement. A message taller than the pane
 * shows the end nearer to where the view was, and stays put while any of it shows.
 */
export function reveal(index: number, anchor: Anchor, g: Geometry): Anchor {
  const view = viewportAt(anchor, g);
  if (!topHidden(index, view) && !bottomHidden(index, view)) return anchor;
  const tall = g.heightOf(index) > g.height;
  if (tall && isVisible(index, view)) return anchor;
  if (index <= view.top) return tall ? { bottom: index, clip: 0 } : anchorForTop(index, 0, g);
  return tall ? anchorForTop(index, 0, g) : { bottom: index, clip: 0 };
}

/** What a key does: within a tall message ↑↓ scroll by a line, PgUp PgDn by a pane, Ctrl+U Ctrl+D by half. */
export function move(position: Position, key: Move, g: Geometry): Position {
  const last = g.count - 1;
  const { selected, anchor } = position;
  const view = viewportAt(anchor, g);
  const select = (i: number): Position => ({ selected: i, anchor: reveal(i, anchor, g) });
  switch (key) {
    case "up":
      if (isVisible(selected, view) && topHidden(selected, view))
        return { selected, anchor: scrollLines(anchor, -1, g) };
      return select(Math.max(0, selected - 1));
    case "down":
      if (isVisible(selected, view) && bottomHidden(selected, view))
        return { selected, anchor: scrollLines(anchor, 1, g) };
      return select(Math.min(last, selected + 1));
    case "halfUp":
    case "halfDown": {
      // Half the messages on screen, as vim's Ctrl+U and Ctrl+D move the cursor; where one
      // tall message fills the pane, half the pane's lines.
      const shown = view.bottom - view.top;
      if (shown >= 2) {
        const step = Math.floor(shown / 2) * (key === "halfUp" ? -1 : 1);
        return select(Math.max(0, Math.min(last, selected + step)));
      }
      const up = key === "halfUp";
      const moved = scrollLines(anchor, (up ? -1 : 1) * Math.max(1, Math.floor(g.height / 2)), g);
      if (moved.bottom === anchor.bottom && moved.clip === anchor.clip) {
        return select(Math.max(0, Math.min(last, selected + (up ? -1 : 1))));
      }
      return { selected, anchor: moved };
    }
    case "pageUp":
    case "pageDown": {
      const up = key === "pageUp";
      const moved = scrollLines(anchor, (up ? -1 : 1) * Math.max(1, g.height - 1), g);
      if (moved.bottom === anchor.bottom && moved.clip === anchor.clip) {
        return up ? select(0) : { selected: last, anchor: endAnchor(g) };
      }
      const after = viewportAt(moved, g);
      if (isVisible(selected, after)) return { selected, anchor: moved };
      return { selected: up ? after.bottom : after.top, anchor: moved };
    }
    case "first":
      return { selected: 0, anchor: anchorForTop(0, 0, g) };
    case "last":
      return { selected: last, anchor: endAnchor(g) };
  }
}
