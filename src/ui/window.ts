// Windowing for the message pane: which items are on screen, given the pane's height,
// the item whose last line sits at the bottom, and each item's line count. Work is
// proportional to what is visible, never to the length of the history.

export type Viewport = {
  /** Index of the first (topmost, possibly clipped) visible item. */
  top: number;
  /** Index of the item whose last line is the pane's bottom line. */
  bottom: number;
  /** Lines of the top item hidden above the pane. */
  clipTop: number;
};

export function viewportEndingAt(
  bottom: number,
  height: number,
  heightOf: (i: number) => number,
): Viewport {
  let used = 0;
  let top = bottom;
  for (let i = bottom; i >= 0; i--) {
    used += heightOf(i);
    top = i;
    if (used >= height) break;
  }
  return { top, bottom, clipTop: Math.max(0, used - height) };
}

/** The bottom index that shows `index` as the topmost whole item (as far as the items allow). */
export function bottomForTop(
  index: number,
  count: number,
  height: number,
  heightOf: (i: number) => number,
): number {
  let used = 0;
  let bottom = index;
  for (let i = index; i < count; i++) {
    used += heightOf(i);
    if (used > height && i > index) break;
    bottom = i;
  }
  return bottom;
}

/** Keeps `selected` on screen with the least movement from the current bottom. */
export function scrollToShow(
  selected: number,
  bottom: number,
  count: number,
  height: number,
  heightOf: (i: number) => number,
): number {
  if (selected > bottom) return selected;
  const view = viewportEndingAt(bottom, height, heightOf);
  const topFullyVisible = view.clipTop > 0 ? view.top + 1 : view.top;
  if (selected < topFullyVisible) return bottomForTop(selected, count, height, heightOf);
  return bottom;
}
