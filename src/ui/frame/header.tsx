// The top line: who you are, on which server (as a person knows it), and where help is.
import { Box, Text } from "ink";
import { useTheme } from "../look/theme.ts";
import { useMe, useSession } from "../screen/session-context.tsx";
import { screenText } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";

export function Header({ width }: { width: number }) {
  const theme = useTheme();
  const session = useSession();
  const me = useMe();
  const server = session.serverLabel ?? session.baseUrl.replace(/^https?:\/\//, "");
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
