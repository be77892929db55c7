// One line: the last error or confirmation (or else the focused pane's keys) on the
// left, the connection state on the right.
import { Box, Text } from "ink";
import { useTheme } from "../look/theme.ts";
import { waitingCount } from "../queries/changes.ts";
import { useQueuedChanges } from "../queries/use-outbox.ts";
import { useStore } from "../screen/observable.ts";
import { useStatusLine } from "../screen/session-context.tsx";
import { connectionLabel, syncedLabel } from "../screen/status-labels.ts";
import type { Connection, Notice } from "../screen/status-line.ts";
import { screenText } from "../text/sanitize.ts";
import { displayWidth, truncate } from "../text/width.ts";

const NOTICE_LOOK = {
  error: { mark: "✗ ", color: "error" },
  info: { mark: "✓ ", color: "success" },
  note: { mark: "", color: "warning" },
} as const;

/** The Ctrl+R hint, shorter where the reason would otherwise be cut to nothing. */
const RETRY_HINTS = [" · Ctrl+R retries now", " · Ctrl+R retries"];
const REASON_MIN = 24;

/**
 * Why the server cannot be reached, and that Ctrl+R retries: the reason is what gives way
 * (its address without the scheme first, then its end), never the hint.
 */
export function offlineLine(reason: string, room: number): string {
  const short = reason.replace(/\bhttps?:\/\//g, "").replace(/\.$/, "");
  const text = ` ✗ ${short}`;
  const [full, brief] = RETRY_HINTS as [string, string];
  if (displayWidth(text) + full.length <= room) return `${text}${full}`;
  const hint = room - full.length >= REASON_MIN ? full : brief;
  if (room - hint.length < REASON_MIN / 2) return truncate(text, room);
  return `${truncate(text, room - hint.length)}${hint}`;
}

const HINT_GAP = " · ";

/**
 * The keys that fit in `room`, whole: from the first on, and always the last (the way out
 * of where you are: Esc back, Esc closes, ? help). A key is left out, never cut.
 */
export function fitHints(hints: string, room: number): string {
  if (displayWidth(hints) <= room) return hints;
  const items = hints.split(HINT_GAP);
  const last = items.pop() ?? "";
  let shown = "";
  for (const item of items) {
    const next = shown ? `${shown}${HINT_GAP}${item}` : item;
    if (displayWidth(`${next}${HINT_GAP}${last}`) > room) break;
    shown = next;
  }
  return shown ? `${shown}${HINT_GAP}${last}` : truncate(items[0] ?? last, room);
}

type Props = {
  width: number;
  hints: string;
  notice: Notice;
  connection: Connection;
  prompt?: string;
};

export function StatusBar({ width, hints, notice, connection, prompt }: Props) {
  const theme = useTheme();
  const lastSynced = useStore(useStatusLine().lastSynced);
  // What waits for the server, while it cannot be reached (online, it goes at once).
  const waiting = waitingCount(useQueuedChanges());
  const queued = connection.state !== "online" && waiting > 0 ? ` · ${waiting} queued` : "";
  const right = `${connectionLabel(connection)}${queued}${syncedLabel(connection, lastSynced)}`;
  const room = Math.max(1, width - right.length - 2);
  const rightColor =
    connection.state === "online"
      ? theme.success
      : connection.state === "connecting"
        ? theme.dim
        : theme.error;
  let left = <Text color={theme.dim}> {fitHints(hints, room - 1)}</Text>;
  if (prompt) {
    left = (
      <Text color={theme.warning} bold>
        {truncate(` ${prompt}`, room)}
      </Text>
    );
  } else if (
    (connection.state === "offline" || connection.state === "unreadable") &&
    notice === null
  ) {
    left = (
      <Text color={theme.error} bold>
        {offlineLine(screenText(connection.reason), room)}
      </Text>
    );
  } else if (notice) {
    const look = NOTICE_LOOK[notice.kind];
    left = (
      <Text color={theme[look.color]} bold={notice.kind !== "info"}>
        {truncate(` ${look.mark}${screenText(notice.text)}`, room)}
      </Text>
    );
  }
  return (
    <Box width={width} height={1} justifyContent="space-between">
      <Text wrap="truncate-end">{left}</Text>
      <Text color={rightColor}>{right} </Text>
    </Box>
  );
}
