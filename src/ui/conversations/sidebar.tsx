// Filter tabs, search, and the conversation list (pinned first, two lines a row:
// name, time and unread count; then a preview of the newest message).

import { Box, type DOMElement, Text } from "ink";
import { memo, useLayoutEffect, useRef } from "react";
import { isApiError } from "../../api/errors.ts";
import type { Conversation } from "../../api/schema.ts";
import { useChatActions, useChatState } from "../chat/chat-context.tsx";
import { SearchLine, useLineInput, usePromptKeys } from "../composer/line-input.tsx";
import { useDrafts, useDraftValue } from "../composer/use-drafts.ts";
import { onSelected, PRIORITY, useBindings, useMouse } from "../keys/dispatcher.tsx";
import { senderColor } from "../look/sender-color.ts";
import { useTheme } from "../look/theme.ts";
import { splitQuote } from "../model/quote.ts";
import { FILTERS, type Filter } from "../queries/conversations.ts";
import { usePreview } from "../queries/previews.ts";
import { BODY_TOP } from "../screen/layout.ts";
import { useStore } from "../screen/observable.ts";
import { Panel } from "../screen/panel.tsx";
import { useContacts, useMentionsOnly, useSession } from "../screen/session-context.tsx";
import { describeError } from "../screen/status-line.ts";
import { useMinuteClock } from "../screen/use-minute-clock.ts";
import { relativeTime } from "../text/format.ts";
import { screenText } from "../text/sanitize.ts";
import { displayWidth, truncate } from "../text/width.ts";
import { conversationIcons, conversationName } from "./names.ts";

const FILTER_LABELS: Record<Filter, string> = {
  all: "All",
  pinned: "Pinned",
  muted: "Muted",
  archived: "Archived",
};

/** Above rows of a filter never loaded, taken from the lists the client holds. */
const HELD_PARTIAL = "may be partial: the rows kept";
/** A filter never loaded, none of its rows among those the client holds. */
const NOT_LOADED = "not loaded yet: shown when the server is back";

type Props = { width: number; height: number };

const ROW_HEIGHT = 2;

export function Sidebar({ width, height }: Props) {
  const { browser, focus, dialog, me } = useChatState();
  const { conversations: actions, setFocus } = useChatActions();
  const { conversations, list, prompting, selectedId, openId, filter } = browser;
  const focused = focus === "sidebar" && dialog === null;
  // A click focuses the list; not while a dialog holds the keys.
  const onFocus = dialog === null ? () => setFocus("sidebar") : undefined;
  // A 404 for the list itself: the base URL is wrong (the status bar says what to try).
  const error = list.error
    ? isApiError(list.error) && list.error.status === 404
      ? "No API at this base URL (404): drop /v1 or /api from it."
      : describeError(list.error)
    : undefined;
  const theme = useTheme();
  const connection = useStore(useSession().status.connection);
  const inner = Math.max(10, width - 2);
  const searching = browser.search !== null;
  // Rows from the lists kept, that may not be all of this filter's: said above them.
  const partial = !searching && list.held === "partial" && conversations.length > 0;
  const above = searching || partial ? 1 : 0;
  const listHeight = Math.max(ROW_HEIGHT, height - 2 - 1 - above);
  const visibleRows = Math.max(1, Math.floor(listHeight / ROW_HEIGHT));
  // -1 until the first row is selected, so the first ↓ lands on the first row.
  const found = conversations.findIndex((c) => c.id === selectedId);
  const index = Math.max(0, found);
  const offset = Math.max(
    0,
    Math.min(index - Math.floor(visibleRows / 2), conversations.length - visibleRows),
  );
  const visible = conversations.slice(offset, offset + visibleRows);
  const now = useMinuteClock();

  // The row the last move went to, until a render shows it: keys of one read (↓↓↓) can
  // each come before React has rendered the one before, and each then moved from the
  // same row, one row in all (on a loaded machine).
  const movedTo = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    movedTo.current = undefined;
  });
  const move = (delta: number) => {
    if (conversations.length === 0) return;
    const moved = conversations.findIndex((c) => c.id === movedTo.current);
    const from = moved >= 0 ? moved : found;
    const next = Math.max(0, Math.min(conversations.length - 1, from + delta));
    movedTo.current = conversations[next]!.id;
    browser.setSelectedId(movedTo.current);
    if (next >= conversations.length - 3) list.loadMore();
  };

  // The row a key acts on (m, a, D…) becomes the selection if it was only shown as it: a
  // row shown in the place of one that left, or the first while the list loads. The list
  // keeps the selection on a conversation whose change is on its way; on one only shown,
  // it went on to the next row as the change took it out (restored from Archived, then 1:
  // the cursor on bob).
  const actedOn = () => {
    const row = conversations.find((c) => c.id === movedTo.current) ?? conversations[index];
    if (row) browser.setSelectedId(row.id);
    return row;
  };

  // The wheel moves the selection (the list follows it); a click selects the row under
  // it and focuses the list. Rows start under the border, the tabs and the search line.
  const box = useRef<DOMElement>(null);
  useMouse(
    box,
    (event) => {
      if (event.kind === "wheelUp" || event.kind === "wheelDown") {
        move(event.kind === "wheelUp" ? -1 : 1);
        return;
      }
      if (event.kind !== "press" || event.button !== 0) return;
      onFocus?.();
      const row = Math.floor((event.y - 2 - above) / ROW_HEIGHT);
      const clicked = row >= 0 ? visible[row] : undefined;
      if (clicked) browser.setSelectedId(clicked.id);
    },
    { isActive: onFocus !== undefined },
  );

  const half = Math.max(1, Math.floor(visibleRows / 2));
  useBindings(
    "conversations",
    {
      "conversation.up": () => move(-1),
      "conversation.down": () => move(1),
      "conversation.pageUp": () => move(-visibleRows),
      "conversation.pageDown": () => move(visibleRows),
      "conversation.halfUp": () => move(-half),
      "conversation.halfDown": () => move(half),
      "conversation.first": () => move(-conversations.length),
      "conversation.last": () => move(conversations.length),
      "conversation.search": browser.openSearch,
      // Nothing to clear: the key goes on.
      "conversation.clearSearch": () => {
        if (browser.search === null) return false;
        browser.endSearch(false);
      },
      ...onSelected(actions.onKey, actedOn),
    },
    { priority: PRIORITY.pane, isActive: focused && !prompting },
  );

  // "1 All 2 Pinned 3 Muted 4 Archived" when it fits, else "1 All 2 Pin 3 Mut 4 Arc",
  // else (a narrow list) the chosen filter's name and the others' initials.
  const long = FILTERS.map((f, i) => `${i + 1} ${FILTER_LABELS[f]}`);
  const short = long.map((l) => l.slice(0, 5));
  const fits = (labels: string[]) => labels.join(" ").length + 2 <= inner;
  const labels = fits(long)
    ? long
    : fits(short)
      ? short
      : FILTERS.map((f, i) => (f === filter ? short[i]! : `${i + 1}${FILTER_LABELS[f][0]}`));
  const tabs = FILTERS.map((f, i) => ({ f, label: labels[i]! }));
  return (
    <Panel width={width} height={height} focused={focused} boxRef={box}>
      <Box height={1} overflow="hidden">
        {tabs.map(({ f, label }, i) => (
          <Text key={f}>
            {i > 0 ? " " : ""}
            <Text
              inverse={f === filter}
              bold={f === filter}
              color={f === filter ? theme.accent : theme.dim}
            >
              {label}
            </Text>
          </Text>
        ))}
      </Box>
      {prompting ? (
        <SearchPrompt
          initial={browser.search ?? ""}
          width={inner - 2}
          onChange={browser.setSearch}
          onMove={move}
          onDone={(open) => {
            browser.endSearch(open);
            const current = conversations[index];
            if (open && current) actions.open(current);
          }}
        />
      ) : searching ? (
        <Box height={1}>
          <Text color={theme.dim} wrap="truncate-end">
            {truncate(`/ ${screenText(browser.search ?? "")} · / changes · Esc clears`, inner)}
          </Text>
        </Box>
      ) : partial ? (
        <Box height={1}>
          <Text color={theme.dim} wrap="truncate-end">
            {displayWidth(HELD_PARTIAL) <= inner ? HELD_PARTIAL : "may be partial"}
          </Text>
        </Box>
      ) : null}
      <Box flexDirection="column" height={listHeight} overflow="hidden">
        {visible.map((c) => (
          <Row
            key={c.id}
            conversation={c}
            width={inner}
            me={me}
            selected={c.id === selectedId}
            open={c.id === openId}
            focused={focused}
            now={now}
          />
        ))}
        {conversations.length === 0 ? (
          <Text
            color={
              error ||
              (list.isLoading && connection.state !== "connecting" && connection.state !== "online")
                ? theme.error
                : theme.dim
            }
            wrap="wrap"
          >
            {list.isLoading
              ? // A silent or unreachable server: the words the status bar and pane use.
                connection.state === "offline" || connection.state === "unreadable"
                ? screenText(connection.reason)
                : "loading…"
              : error
                ? screenText(error)
                : list.held === "partial" && !searching
                  ? NOT_LOADED
                  : searching
                    ? "No conversation matches."
                    : filter === "all"
                      ? "No conversations. Press n to start one."
                      : `No ${FILTER_LABELS[filter].toLowerCase()} conversations.`}
          </Text>
        ) : null}
      </Box>
    </Panel>
  );
}

/**
 * The `/` prompt: it owns the keys while open. Typing edits the search (as the composer
 * edits, by grapheme); ↑↓ still move in the list; Enter opens the match and closes the
 * prompt, keeping the search; Esc clears it.
 */
function SearchPrompt(props: {
  initial: string;
  width: number;
  onChange: (value: string) => void;
  onMove: (delta: number) => void;
  onDone: (open: boolean) => void;
}) {
  const line = useLineInput(props.initial, props.onChange);
  usePromptKeys(line, "search", {
    "search.clear": () => props.onDone(false),
    "search.up": () => props.onMove(-1),
    "search.down": () => props.onMove(1),
    "search.open": () => props.onDone(true),
    // Everything else is typing, for the search only: no global key may see it.
    "search.type": line.type,
  });
  return (
    <SearchLine
      state={line.state}
      width={props.width}
      placeholder="any conversation by name · Enter opens · Esc clears"
      // The sidebar is at the screen's left edge: inside its border, below the tabs.
      origin={{ x: 1, y: BODY_TOP + 2 }}
    />
  );
}

/** A row's preview, a group's sender's name in that person's colour (as in the messages). */
function PreviewLine({
  text,
  sender,
  username,
}: {
  text: string;
  sender: string;
  username: string;
}) {
  const theme = useTheme();
  const lead = `   ${sender}`;
  const named = sender !== "" && text.startsWith(lead);
  return (
    <Text wrap="truncate-end" color={theme.dim} dimColor={theme.faint}>
      {named ? "   " : text}
      {named ? <Text color={senderColor(theme, username)}>{sender}</Text> : null}
      {named ? text.slice(lead.length) : null}
    </Text>
  );
}

type RowProps = {
  conversation: Conversation;
  width: number;
  me: string | undefined;
  selected: boolean;
  open: boolean;
  focused: boolean;
  /** Unix seconds, from the minute clock: a new minute renders the row's "2m" again. */
  now: number;
};

const Row = memo(function Row({
  conversation: c,
  width,
  me,
  selected,
  open,
  focused,
  now,
}: RowProps) {
  const theme = useTheme();
  const contacts = useContacts();
  const preview = usePreview(c, me);
  // A draft waiting in a conversation not open shows in place of its preview, as in the
  // chat apps people know; the open one's is in the composer (and a key there changes no
  // row: the value stays ""). Only its start is read: every key asks every row again.
  const draft = useDraftValue(useDrafts(), c.id, (d) =>
    open ? "" : d.value.slice(0, 500).replace(/\s+/g, " ").trim(),
  );
  const name = conversationName(c, contacts);
  const mentionsOnly = useMentionsOnly(c.id);
  const icons = conversationIcons(c, mentionsOnly);
  const when = c.last_active_at !== null ? relativeTime(c.last_active_at, now) : "new";
  const unread =
    preview && preview.unread > 0 && !open
      ? `●${preview.unread}${preview.unreadMore ? "+" : ""}`
      : "";
  // A distinct mark beside the count when an unread message names you.
  const named = unread && preview?.mentioned ? "@" : "";
  const right = `${when}${unread ? ` ${named}${unread}` : ""}`;
  const marker = selected ? "▸" : open ? "•" : " ";
  const left = `${marker}${icons ? `${icons} ` : ""}`;
  const nameRoom = Math.max(1, width - displayWidth(left) - displayWidth(right) - 1);
  const shownName = truncate(name, nameRoom);
  const gap = Math.max(
    1,
    width - displayWidth(left) - displayWidth(shownName) - displayWidth(right),
  );
  const newest = preview?.newest;
  const who = newest
    ? newest.contact.username === me
      ? "you: "
      : c.group_id
        ? `${screenText(newest.contact.username)}: `
        : ""
    : "";
  const attachment =
    newest && newest.attachments.length > 0 && !newest.message.trim() ? "📎 attachment" : "";
  const previewText = newest
    ? `${who}${screenText(splitQuote(newest.message).reply.replace(/\s+/g, " ").trim()) || attachment}`
    : c.last_active_at === null
      ? "no messages yet"
      : "";
  const highlight = selected && focused;
  const bold = Boolean(unread) || selected;
  return (
    <Box flexDirection="column" height={2}>
      <Text wrap="truncate-end" inverse={highlight} bold={bold}>
        <Text color={selected ? theme.accent : undefined}>{left}</Text>
        <Text>{shownName}</Text>
        <Text>{" ".repeat(gap)}</Text>
        <Text color={theme.dim}>{when}</Text>
        {unread ? " " : null}
        {named ? (
          <Text color={theme.mention} bold inverse>
            {named}
          </Text>
        ) : null}
        {unread ? (
          <Text color={theme.unread} bold>
            {unread}
          </Text>
        ) : null}
      </Text>
      {draft ? (
        <Text wrap="truncate-end">
          <Text color={theme.warning}>{"   draft: "}</Text>
          <Text color={theme.dim}>{truncate(screenText(draft), Math.max(1, width - 10))}</Text>
        </Text>
      ) : (
        <PreviewLine
          text={truncate(`   ${previewText}`, width)}
          sender={c.group_id && newest && newest.contact.username !== me ? who : ""}
          username={newest?.contact.username ?? ""}
        />
      )}
    </Box>
  );
});
