// One line: the last error or confirmation (or else the focused pane's keys) on the
// left, the connection state on the right.
import { Box, Text } from "ink";
import { useTheme } from "../look/theme.ts";
import { waitingCount } from "../queries/changes.ts";
import { useQueuedChanges } from "../queries/use-outbox.ts";
import { clockTime } from "../text/format.ts";
import { screenText } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";
import { useStore } from "./observable.ts";
import { useStatusLine } from "./session-context.tsx";
import type { Connection, Notice } from "./status-line.ts";

function connectionLabel(connection: Connection): string {
  switch (connection.state) {
    case "connecting":
      return "connecting…";
    case "online":
      return "● online";
    case "offline":
      return "○ offline, retrying";
    case "unreadable":
      return "○ answers unreadable, retrying";
    case "unauthorized":
      return "✗ token rejected";
  }
}

/** "last synced 14:05": how old the screen is, while it is not the server's word. */
function syncedLabel(connection: Connection, lastSynced: number | undefined): string {
  if (connection.state === "online" || lastSynced === undefined) return "";
  return ` · last synced ${clockTime(Math.floor(lastSynced / 1000))}`;
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
  let left = <Text color={theme.dim}>{truncate(` ${hints}`, room)}</Text>;
  if (prompt) {
    left = (
      <Text color={theme.warning} bold>
        {truncate(` ${prompt}`, room)}
      </Text>
    );
  } else if (
    (connection.state === "offline" || connection.state === "unreadable") &&
    notice?.kind !== "error"
  ) {
    left = (
      <Text color={theme.error} bold>
        {truncate(` ✗ Ctrl+R retries now · ${screenText(connection.reason)}`, room)}
      </Text>
    );
  } else if (notice) {
    left = (
      <Text
        color={notice.kind === "error" ? theme.error : theme.success}
        bold={notice.kind === "error"}
      >
        {truncate(` ${notice.kind === "error" ? "✗ " : "✓ "}${screenText(notice.text)}`, room)}
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
