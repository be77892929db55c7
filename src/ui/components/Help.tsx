import { Box, Text } from "ink";
import { KEYMAP } from "../keymap.ts";
import { PRIORITY, useKeypress } from "../keys.tsx";
import { padEnd, truncate } from "../text.ts";
import { useTheme } from "../theme.ts";

/** The whole key table; any key closes it (Ctrl+C still quits). */
export function Help({
  width,
  height,
  onClose,
}: {
  width: number;
  height: number;
  onClose: () => void;
}) {
  const theme = useTheme();
  useKeypress(
    (input, key) => {
      if (key.ctrl && input === "c") return false;
      onClose();
      return true;
    },
    { priority: PRIORITY.dialog },
  );
  const inner = width - 4;
  const keyWidth = Math.min(28, Math.floor(inner * 0.4));
  const lines: { text: string; heading?: boolean }[] = [];
  for (const section of KEYMAP) {
    lines.push({ text: section.where, heading: true });
    for (const k of section.keys) {
      lines.push({ text: truncate(`  ${padEnd(k.keys, keyWidth)} ${k.does}`, inner) });
    }
  }
  const room = Math.max(1, height - 4);
  const twoColumns = lines.length > room && inner >= 100;
  const columns = twoColumns
    ? [lines.slice(0, Math.ceil(lines.length / 2)), lines.slice(Math.ceil(lines.length / 2))]
    : [lines];
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="double"
      borderColor={theme.focusBorder}
      paddingX={1}
    >
      <Text bold color={theme.accent}>
        parley keys · any key closes
      </Text>
      <Box flexDirection="row">
        {columns.map((column, c) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
          <Box key={c} flexDirection="column" width={twoColumns ? Math.floor(inner / 2) : inner}>
            {column.slice(0, room).map((line, i) => (
              <Text
                // biome-ignore lint/suspicious/noArrayIndexKey: static table
                key={i}
                bold={line.heading}
                color={line.heading ? theme.accent : undefined}
                wrap="truncate-end"
              >
                {line.text}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
