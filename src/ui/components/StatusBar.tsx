// One line: the last error or confirmation (or else the focused pane's keys) on the
// left, the connection state on the right.
import { Box, Text } from "ink";
import type { Connection, Notice } from "../status.ts";
import { screenText } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";
import { useTheme } from "../theme.ts";

function connectionLabel(connection: Connection): string {
  switch (connection.state) {
    case "connecting":
      return "connecting…";
    case "online":
      return "● online";
    case "offline":
      return "○ offline, retrying";
    case "unauthorized":
      return "✗ token rejected";
  }
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
  const right = connectionLabel(connection);
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
  } else if (connection.state === "offline" && notice?.kind !== "error") {
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
