import { Box, Text } from "ink";
import { screenText } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";
import { useTheme } from "../theme.ts";

export function Header({
  width,
  me,
  server,
}: {
  width: number;
  me: string | undefined;
  server: string;
}) {
  const theme = useTheme();
  const right = "? help";
  const left = truncate(
    ` parley · ${me ? screenText(me) : "(you: not known yet)"} @ ${server}`,
    width - right.length - 2,
  );
  return (
    <Box width={width} height={1} justifyContent="space-between">
      <Text bold color={theme.accent} wrap="truncate-end">
        {left}
      </Text>
      <Text color={theme.dim}>{right} </Text>
    </Box>
  );
}
