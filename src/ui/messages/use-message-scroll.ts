// The message pane's selection and view, kept by item keys (so older pages loading above
// move nothing) and by lines (so a message taller than the pane is read line by line).
// Following the newest message is a state of its own: news keeps the view at the bottom.
// While the newest messages are not loaded (history scrolled far back, queries/history.ts)
// the last item is not the newest: the view does not follow it, and G fetches the newest.
import { useMemo, useRef, useState } from "react";
import type { Item } from "./message-lines.ts";
import {
  type Anchor,
  anchorForTop,
  endAnchor,
  type Geometry,
  isEnd,
  type Move,
  move,
  type Position,
  reveal,
  scrollLines,
  viewportAt,
} from "./window.ts";

type Scroll =
  | { follow: true }
  | {
      follow: false;
      selectedKey: string;
      bottomKey: string;
      /** Lines of the bottom item hidden below the pane. */
      clip: number;
      /** The newest item when the user scrolled away from the bottom: what came after is "new". */
      newestSeenKey: string;
    };

const FOLLOWING: Scroll = { follow: true };

/** Whether the items reach the newest message, and the way there when they do not. */
export type Newest = { loaded: boolean; show: () => void };

export function useMessageScroll(items: readonly Item[], g: Geometry, newest: Newest) {
  const [scroll, setScrollState] = useState<Scroll>(FOLLOWING);
  // What the last key set, before the render that shows it: the keys of one read can come
  // before React has rendered the one before (keys/dispatcher.tsx), and each must move on
  // from where that one left the selection (↑↑↑ moved two now and then), as use-row-chooser
  // keeps its index.
  const latest = useRef(scroll);
  // Whether anything has moved the view since the pane opened (a key, a send, a match).
  const moved = useRef(false);
  const setScroll = (next: Scroll) => {
    moved.current = true;
    latest.current = next;
    setScrollState(next);
  };
  const indexOf = useMemo(() => new Map(items.map((item, i) => [item.key, i])), [items]);
  const last = items.length - 1;

  const positionOf = (at: Scroll): Position => {
    if (at.follow || last < 0) return { selected: last, anchor: endAnchor(g) };
    const selected = indexOf.get(at.selectedKey) ?? last;
    const kept: Anchor = { bottom: indexOf.get(at.bottomKey) ?? last, clip: at.clip };
    // The remembered view, moved if it no longer shows the selection (the pane got
    // shorter or narrower, or messages above grew).
    return { selected, anchor: reveal(selected, scrollLines(kept, 0, g), g) };
  };
  const position = positionOf(scroll);
  const view = last >= 0 ? viewportAt(position.anchor, g) : null;
  const newestSeen = scroll.follow ? undefined : indexOf.get(scroll.newestSeenKey);
  const newBelow = newestSeen === undefined ? 0 : last - newestSeen;

  const go = (next: Position) => {
    if (last < 0) return;
    if (next.selected === last && isEnd(next.anchor, g) && newest.loaded) {
      setScroll(FOLLOWING);
      return;
    }
    setScroll({
      follow: false,
      selectedKey: items[next.selected]!.key,
      bottomKey: items[next.anchor.bottom]!.key,
      clip: next.anchor.clip,
      newestSeenKey: latest.current.follow ? items[last]!.key : latest.current.newestSeenKey,
    });
  };
  return {
    selected: position.selected,
    view,
    following: scroll.follow,
    /** Messages that arrived below since the user scrolled up. */
    newBelow,
    /** Whether the view has moved since the pane opened: by a key, a send or a search. */
    moved: () => moved.current,
    press: (key: Move) => {
      if (key === "last" && !newest.loaded) {
        newest.show();
        setScroll(FOLLOWING);
        return;
      }
      if (last >= 0) go(move(positionOf(latest.current), key, g));
    },
    /** Selects item `index`, its line `line` at the top of the pane (as far as it goes). */
    showFrom: (index: number, line = 0) =>
      go({ selected: index, anchor: anchorForTop(index, line, g) }),
    /** Selects item `index` with the least movement. */
    select: (index: number) =>
      go({ selected: index, anchor: reveal(index, positionOf(latest.current).anchor, g) }),
    /** To the newest message, and following it (fetched first if far back). */
    follow: () => {
      if (!newest.loaded) newest.show();
      setScroll(FOLLOWING);
    },
  };
}
