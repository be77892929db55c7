// The open conversation: title, pinned message, and a hand-windowed list of messages
// (only what fits is laid out and rendered). Selection moves with ↑↓/jk, PgUp/PgDn, g/G;
// reaching the top loads older history; new messages keep the view at the bottom unless
// the user scrolled up, and then the title says "N new".
import { Box, type DOMElement, type Key, Text } from "ink";
import { type ReactElement, useEffect, useMemo, useRef, useState } from "react";
import type { Message } from "../../api/schema.ts";
import { matchBinding } from "../bindings.ts";
import { useMinuteClock } from "../hooks/useMinuteClock.ts";
import { PRIORITY, useKeypress, useMouse } from "../input.tsx";
import { cachedLayout, type Item, type LayoutContext } from "../messageLines.ts";
import { screenText } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";
import { useTheme } from "../theme.ts";
import { scrollToShow, viewportEndingAt } from "../window.ts";
import { LineView } from "./Lines.tsx";
import { Panel } from "./Panel.tsx";

export type MessageAction =
  | "react"
  | "reactors"
  | "edit"
  | "delete"
  | "pin"
  | "retry"
  | "drop"
  | "copy";

const ACTIONS = {
  "message.react": "react",
  "message.reactors": "reactors",
  "message.edit": "edit",
  "message.pin": "pin",
  "message.copy": "copy",
} as const satisfies Record<string, MessageAction>;

type Props = {
  title: string;
  icons: string;
  width: number;
  height: number;
  focused: boolean;
  items: Item[];
  me: string | undefined;
  pinned: Message | null | undefined;
  loading: boolean;
  hasOlder: boolean;
  isLoadingOlder: boolean;
  loadOlder: () => void;
  onAction: (action: MessageAction, item: Item) => void;
  onLeave: () => void;
  /** Focus this pane (a click on it); absent while a dialog holds the keys: no mouse then. */
  onFocus?: () => void;
};

type Scroll = {
  follow: boolean;
  selectedKey: string | undefined;
  bottomKey: string | undefined;
  /** The newest item when the user scrolled away from the bottom: what came after is "new". */
  newestSeenKey: string | undefined;
};

const FOLLOWING: Scroll = {
  follow: true,
  selectedKey: undefined,
  bottomKey: undefined,
  newestSeenKey: undefined,
};

export function MessagePane(props: Props) {
  const { width, height, items, focused } = props;
  const theme = useTheme();
  const innerWidth = Math.max(10, width - 2);
  const pinnedRows = props.pinned ? 1 : 0;
  const viewHeight = Math.max(1, height - 2 - 1 - pinnedRows);
  // One column for the selection marker on the left, and one blank on the right to match.
  const lineWidth = innerWidth - 2;
  const readMarkerId = useMemo(() => {
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.kind !== "message" || item.message.contact.username !== props.me) continue;
      if (item.message.read_at !== null) return item.message.id;
    }
    return undefined;
  }, [items, props.me]);
  // Day separators ("Today", "Yesterday") move on with the clock.
  const now = useMinuteClock();
  const ctx: LayoutContext = useMemo(
    () => ({ width: lineWidth, me: props.me, now, readMarkerId }),
    [lineWidth, props.me, now, readMarkerId],
  );
  const indexOf = useMemo(() => new Map(items.map((item, i) => [item.key, i])), [items]);
  const heightOf = (i: number) => cachedLayout(items[i]!, items[i - 1], ctx).length;

  const [scroll, setScroll] = useState<Scroll>(FOLLOWING);
  const last = items.length - 1;
  const selected = scroll.follow ? last : (indexOf.get(scroll.selectedKey ?? "") ?? last);
  // The remembered bottom, moved if it no longer shows the selection (the pane got
  // shorter or narrower, or messages above grew).
  const bottom = scroll.follow
    ? last
    : scrollToShow(
        selected,
        indexOf.get(scroll.bottomKey ?? "") ?? last,
        items.length,
        viewHeight,
        heightOf,
      );
  const view = last >= 0 ? viewportEndingAt(bottom, viewHeight, heightOf) : null;
  const newestSeen = indexOf.get(scroll.newestSeenKey ?? "");
  const newBelow = scroll.follow || newestSeen === undefined ? 0 : last - newestSeen;

  // Reaching the oldest loaded message asks for the page before it.
  const atTop = view !== null && view.top === 0 && (selected === 0 || view.clipTop === 0);
  const { hasOlder, isLoadingOlder, loadOlder } = props;
  useEffect(() => {
    if (atTop && hasOlder && !isLoadingOlder && !scroll.follow) loadOlder();
  }, [atTop, hasOlder, isLoadingOlder, loadOlder, scroll.follow]);
  useEffect(() => {
    // A short conversation that does not fill the pane loads more at once. Only when the
    // whole loaded history is on screen: the sum below then covers visible items only,
    // never a long history scrolled to its top (that case is the effect above).
    if (
      view &&
      view.top === 0 &&
      view.bottom === last &&
      view.clipTop === 0 &&
      hasOlder &&
      !isLoadingOlder &&
      items.length > 0
    ) {
      let used = 0;
      for (let i = 0; i <= last; i++) used += heightOf(i);
      if (used < viewHeight) loadOlder();
    }
  });

  const select = (index: number) => {
    if (last < 0) return;
    const next = Math.max(0, Math.min(last, index));
    if (next === last) {
      setScroll(FOLLOWING);
      return;
    }
    const nextBottom = scrollToShow(next, bottom, items.length, viewHeight, heightOf);
    setScroll({
      follow: false,
      selectedKey: items[next]!.key,
      bottomKey: items[nextBottom]!.key,
      newestSeenKey: scroll.follow ? items[last]!.key : scroll.newestSeenKey,
    });
  };

  useKeypress(
    (input: string, key: Key) => {
      const action = matchBinding("messages", input, key);
      const page = Math.max(1, view ? bottom - view.top : 1);
      switch (action) {
        case "message.up":
          select(selected - 1);
          return true;
        case "message.down":
          select(selected + 1);
          return true;
        case "message.pageUp":
          select(selected - page);
          return true;
        case "message.pageDown":
          select(selected + page);
          return true;
        case "message.first":
          select(0);
          return true;
        case "message.last":
          select(last);
          return true;
        case "message.back":
          props.onLeave();
          return true;
        case undefined:
          return false;
      }
      const item = items[selected];
      if (!item) return false;
      switch (action) {
        case "message.retry":
          if (item.kind !== "outbox") return false;
          props.onAction("retry", item);
          return true;
        case "message.delete":
          props.onAction(item.kind === "outbox" ? "drop" : "delete", item);
          return true;
        default:
          props.onAction(ACTIONS[action], item);
          return true;
      }
    },
    { priority: PRIORITY.pane, isActive: focused },
  );

  const rows: ReactElement[] = [];
  /** The item each row on screen belongs to, for clicks. */
  const rowItems: number[] = [];
  if (view) {
    for (let i = view.top; i <= view.bottom; i++) {
      const item = items[i]!;
      let lines = cachedLayout(item, items[i - 1], ctx);
      if (i === view.top && view.clipTop > 0) lines = lines.slice(view.clipTop);
      const isSelected = focused && i === selected;
      lines.forEach((line, n) => {
        rowItems.push(i);
        rows.push(
          <LineView
            // biome-ignore lint/suspicious/noArrayIndexKey: a message's lines are positional
            key={`${item.key}:${n}`}
            line={line}
            marker={isSelected ? (theme.color ? "▌" : ">") : " "}
          />,
        );
      });
    }
  }

  // The wheel moves the selection a message at a time (the view follows it); a click
  // selects the message under it and focuses the pane. The rows sit at the bottom of the
  // list area, under the border, the title and the pinned line.
  const box = useRef<DOMElement>(null);
  useMouse(
    box,
    (event) => {
      if (event.kind === "wheelUp" || event.kind === "wheelDown") {
        select(selected + (event.kind === "wheelUp" ? -1 : 1));
        return;
      }
      if (event.kind !== "press" || event.button !== 0) return;
      props.onFocus?.();
      const areaTop = 1 + 1 + pinnedRows + Math.max(0, viewHeight - rows.length);
      const clicked = rowItems[event.y - areaTop];
      if (clicked !== undefined) select(clicked);
    },
    { isActive: props.onFocus !== undefined },
  );

  const status = props.loading
    ? "loading…"
    : isLoadingOlder
      ? "loading older…"
      : newBelow > 0
        ? `${newBelow} new ↓`
        : "";
  const titleRoom = Math.max(1, innerWidth - status.length - 1);
  return (
    <Panel width={width} height={height} focused={focused} boxRef={box}>
      <Box height={1} justifyContent="space-between">
        <Text bold wrap="truncate-end">
          {truncate(`${props.title}${props.icons ? ` ${props.icons}` : ""}`, titleRoom)}
        </Text>
        <Text color={newBelow > 0 ? theme.unread : theme.dim}>{status}</Text>
      </Box>
      {props.pinned ? (
        <Text color={theme.accent} wrap="truncate-end">
          {truncate(
            `📌 ${screenText(props.pinned.message).replace(/\n/g, " ")} — ${screenText(props.pinned.contact.username)}`,
            innerWidth,
          )}
        </Text>
      ) : null}
      <Box flexDirection="column" height={viewHeight} justifyContent="flex-end" overflow="hidden">
        {items.length === 0 && !props.loading ? (
          <Text color={theme.dim}>No messages yet. Say hello below.</Text>
        ) : (
          rows
        )}
      </Box>
    </Panel>
  );
}
