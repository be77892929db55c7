// The open conversation: title, pinned message, and a hand-windowed list of messages
// (only what fits is laid out and rendered). Selection moves with ↑↓/jk, PgUp/PgDn, g/G,
// and through a message taller than the pane line by line; reaching the top loads older
// history; new messages keep the view at the bottom unless the user scrolled up, and then
// the title says "N new"; your own send goes to the bottom. A "new" divider marks where
// the unread messages started; / searches the conversation (n, N: older, newer match).
// Scrolled far back, only a window of history is kept (queries/history.ts): reaching its
// bottom loads the newer page below it, and G goes straight to the newest. Below the
// newest message, the sends on their way or failed (the outbox).

import { Box, type DOMElement, Text } from "ink";
import { type ReactElement, useEffect, useMemo, useRef } from "react";
import type { Message } from "../../api/schema.ts";
import { useChatActions, useChatState } from "../chat/chat-context.tsx";
import type { ScreenCell } from "../composer/terminal-cursor.tsx";
import { conversationIcons } from "../conversations/names.ts";
import { onSelected, PRIORITY, useBindings, useMouse } from "../keys/dispatcher.tsx";
import { useTheme } from "../look/theme.ts";
import { useOutbox } from "../queries/use-outbox.ts";
import { Panel } from "../screen/panel.tsx";
import { useMentionsOnly } from "../screen/session-context.tsx";
import { describeError } from "../screen/status-line.ts";
import { useMinuteClock } from "../screen/use-minute-clock.ts";
import { screenText } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";
import { LineView } from "./lines.tsx";
import { cachedLayout, type Item, type LayoutContext } from "./message-lines.ts";
import { highlight } from "./search.ts";
import { MessageSearchPrompt } from "./search-prompt.tsx";
import { useMessageScroll } from "./use-message-scroll.ts";
import { type HistoryPaging, useMessageSearch } from "./use-message-search.ts";
import { useFollowOwnSend, useShowMatch, useUnreadStart } from "./use-pane-jumps.ts";
import type { Geometry } from "./window.ts";

/** The open conversation's history as the pane pages through it. */
export type PaneHistory = HistoryPaging & {
  /** The loaded messages, oldest first. */
  messages: Message[];
  isLoading: boolean;
  /** Why the messages could not be read, if they could not: said where they would be. */
  error?: unknown;
  toNewest: () => void;
};

type Props = {
  /** The screen cell of the pane's top-left corner (for the search prompt's cursor). */
  origin?: ScreenCell;
  width: number;
  height: number;
  pinned: Message | null | undefined;
  history: PaneHistory;
};

export function MessagePane(props: Props) {
  const { width, height, history } = props;
  const { open, focus, dialog, me, browser } = useChatState();
  const items = usePaneItems(open?.id, history);
  const { messages: actions, conversations, setFocus } = useChatActions();
  const focused = focus === "messages" && dialog === null;
  // A question or the picker is about the selected message: it stays marked.
  const marked =
    focus === "messages" &&
    (dialog === null || dialog.kind === "confirm" || dialog.kind === "react");
  const mentionsOnly = useMentionsOnly(open?.id);
  const icons = open ? conversationIcons(open, mentionsOnly) : "";
  const title = open ? `${conversations.nameOf(open)}${icons ? ` ${icons}` : ""}` : "";
  // A click focuses the pane; not while a dialog holds the keys.
  const onFocus = dialog === null ? () => setFocus("messages") : undefined;
  const theme = useTheme();
  const innerWidth = Math.max(10, width - 2);
  const pinnedRows = props.pinned ? 1 : 0;
  const viewHeight = Math.max(1, height - 2 - 1 - pinnedRows);
  // One column for the selection marker on the left, and one blank on the right to match.
  const lineWidth = innerWidth - 2;
  const readMarkerId = useMemo(() => {
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.kind !== "message" || item.message.contact.username !== me) continue;
      if (item.message.read_at !== null) return item.message.id;
    }
    return undefined;
  }, [items, me]);
  const unread = useUnreadStart(items, history, browser.lastOpenedBefore, me);
  const { unreadKey } = unread;
  // Day separators ("Today", "Yesterday") move on with the clock.
  const now = useMinuteClock();
  const ctx: LayoutContext = useMemo(
    () => ({
      width: lineWidth,
      me: me,
      now,
      readMarkerId,
      unreadKey,
    }),
    [lineWidth, me, now, readMarkerId, unreadKey],
  );
  const layout = (i: number) => cachedLayout(items[i]!, items[i - 1], ctx);
  const geometry: Geometry = {
    count: items.length,
    height: viewHeight,
    heightOf: (i) => layout(i).length,
  };
  const { hasOlder, isLoadingOlder, loadOlder, hasNewer, isLoadingNewer, loadNewer } = history;
  const scroll = useMessageScroll(items, geometry, { loaded: !hasNewer, show: history.toNewest });
  const { selected, view, newBelow } = scroll;
  const last = items.length - 1;
  const search = useMessageSearch(items, history);
  const query = search.search?.query ?? "";
  const matchKey = search.search?.matchKey;

  useEffect(() => unread.goToStart(scroll, geometry));
  useFollowOwnSend(items, scroll);
  const toMatch = useShowMatch(items, { key: matchKey, query }, layout, viewHeight, scroll);

  // Reaching the oldest loaded message asks for the page before it. Not while a search
  // walks through pages, nor before the view goes to the match it found: the view is not
  // where it will be, and a page asked for then could push the match out of the window.
  const seeking = search.search?.seeking !== undefined || toMatch;
  const atTop = view !== null && view.top === 0 && view.clipTop === 0;
  useEffect(() => {
    if (atTop && hasOlder && !isLoadingOlder && !scroll.following && !seeking) loadOlder();
  }, [atTop, hasOlder, isLoadingOlder, loadOlder, scroll.following, seeking]);
  // Reaching the newest loaded message of a window far back asks for the page after it.
  const atBottom = view !== null && view.bottom === last && view.clipBottom === 0;
  useEffect(() => {
    if (atBottom && hasNewer && !isLoadingNewer && !scroll.following && !seeking) loadNewer();
  }, [atBottom, hasNewer, isLoadingNewer, loadNewer, scroll.following, seeking]);
  useEffect(() => {
    // A short conversation that does not fill the pane loads more at once. Only when the
    // whole loaded history is on screen: the sum below then covers visible items only,
    // never a long history scrolled to its top (that case is the effect above).
    if (view && view.top === 0 && view.bottom === last && view.clipTop === 0 && hasOlder) {
      let used = 0;
      for (let i = 0; i <= last; i++) used += geometry.heightOf(i);
      if (used < viewHeight && !isLoadingOlder) loadOlder();
    }
  });

  const searching = search.search !== null;
  useBindings(
    "messages",
    {
      "message.up": () => scroll.press("up"),
      "message.down": () => scroll.press("down"),
      "message.pageUp": () => scroll.press("pageUp"),
      "message.pageDown": () => scroll.press("pageDown"),
      "message.halfUp": () => scroll.press("halfUp"),
      "message.halfDown": () => scroll.press("halfDown"),
      "message.first": () => scroll.press("first"),
      "message.last": () => scroll.press("last"),
      "message.search": search.start,
      // n and N move between matches while a search is on; else n is a new conversation.
      "message.nextMatch": () => {
        if (!searching) return false;
        search.older();
      },
      "message.previousMatch": () => {
        if (!searching) return false;
        search.newer();
      },
      "message.back": () => (searching ? search.cancel() : setFocus("sidebar")),
      ...onSelected(actions.onKey, () => items[selected]),
    },
    { priority: PRIORITY.pane, isActive: focused },
  );

  const rows: ReactElement[] = [];
  /** The item each row on screen belongs to, for clicks. */
  const rowItems: number[] = [];
  if (view) {
    for (let i = view.top; i <= view.bottom; i++) {
      const item = items[i]!;
      let lines = layout(i);
      const from = i === view.top ? view.clipTop : 0;
      const to = lines.length - (i === view.bottom ? view.clipBottom : 0);
      if (from > 0 || to < lines.length) lines = lines.slice(from, to);
      if (item.key === matchKey) lines = highlight(lines, query);
      const isSelected = marked && i === selected;
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
        scroll.press(event.kind === "wheelUp" ? "up" : "down");
        return;
      }
      if (event.kind !== "press" || event.button !== 0) return;
      onFocus?.();
      const areaTop = 1 + 1 + pinnedRows + Math.max(0, viewHeight - rows.length);
      const clicked = rowItems[event.y - areaTop];
      if (clicked !== undefined) scroll.select(clicked);
    },
    { isActive: onFocus !== undefined },
  );

  const status = history.isLoading
    ? "loading…"
    : search.status
      ? search.status
      : isLoadingOlder
        ? "loading older…"
        : isLoadingNewer
          ? "loading newer…"
          : newBelow > 0
            ? `${newBelow} new ↓`
            : hasNewer
              ? "newer ↓"
              : "";
  const titleRoom = Math.max(1, innerWidth - status.length - 1);
  return (
    <Panel width={width} height={height} focused={focused} boxRef={box}>
      {search.search?.typing ? (
        <MessageSearchPrompt
          origin={props.origin && { x: props.origin.x + 1, y: props.origin.y + 1 }}
          query={query}
          width={innerWidth}
          onChange={search.type}
          onSubmit={search.submit}
          onCancel={search.cancel}
        />
      ) : (
        <Box height={1} justifyContent="space-between">
          <Text bold wrap="truncate-end">
            {truncate(title, titleRoom)}
          </Text>
          <Text color={newBelow > 0 && !search.status ? theme.unread : theme.dim}>{status}</Text>
        </Box>
      )}
      {props.pinned ? (
        <Text color={theme.accent} wrap="truncate-end">
          {truncate(
            // "you", as the messages say it of yours.
            `📌 ${screenText(props.pinned.message).replace(/\n/g, " ")} — ${props.pinned.contact.username === me ? "you" : screenText(props.pinned.contact.username)}`,
            innerWidth,
          )}
        </Text>
      ) : null}
      <Box flexDirection="column" height={viewHeight} justifyContent="flex-end" overflow="hidden">
        {items.length === 0 && !history.isLoading && history.error ? (
          <Text color={theme.error} wrap="truncate-end">
            {truncate(
              `Messages could not be read: ${screenText(describeError(history.error))}`,
              innerWidth,
            )}
          </Text>
        ) : items.length === 0 && !history.isLoading ? (
          <Text color={theme.dim}>No messages yet. Say hello below.</Text>
        ) : (
          rows
        )}
      </Box>
    </Panel>
  );
}

/**
 * What the pane lists: the history, then the sends on their way or failed, each as an item
 * the pane can select. A send made while the history is windowed far back first brings the
 * newest messages back, then shows below them.
 */
function usePaneItems(conversationId: string | undefined, history: PaneHistory): Item[] {
  const outbox = useOutbox(conversationId);
  const sending = outbox.at(-1)?.idempotencyKey;
  const seen = useRef(sending);
  const { hasNewer, toNewest, messages } = history;
  useEffect(() => {
    if (sending === seen.current) return;
    seen.current = sending;
    if (sending !== undefined && hasNewer) toNewest();
  }, [sending, hasNewer, toNewest]);
  return useMemo(
    () => [
      ...messages.map((message): Item => ({ kind: "message", key: message.id, message })),
      ...(hasNewer ? [] : outbox).map(
        (entry): Item => ({ kind: "outbox", key: `out:${entry.idempotencyKey}`, entry }),
      ),
    ],
    [messages, hasNewer, outbox],
  );
}
