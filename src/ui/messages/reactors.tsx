// Who reacted to a message, with what: one line per reaction name, its emoji, its short
// code and the user names (you as "you"). Any key closes it.
import { Box, Text } from "ink";
import type { Message } from "../../api/schema.ts";
import { PRIORITY, useBindings } from "../keys/dispatcher.tsx";
import { useTheme } from "../look/theme.ts";
import { useMe } from "../screen/session-context.tsx";
import { sanitize } from "../text/sanitize.ts";
import { terminalForm } from "../text/width.ts";
import { emojiFor } from "./emoji.ts";

export const MAX_REACTOR_LINES = 6;

/** One line per reaction name: who, in the order they reacted. */
export function reactorLines(message: Message, me: string | undefined): string[] {
  const lines: string[] = [];
  for (const reaction of message.reactions) {
    for (const [name, users] of Object.entries(reaction)) {
      if (users.length === 0) continue;
      const emoji = emojiFor(name);
      const label = emoji.startsWith(":") ? emoji : `${terminalForm(emoji)} :${sanitize(name)}:`;
      const who = users.map((u) => (u === me ? "you" : sanitize(u))).join(", ");
      lines.push(`${label}  ${who}`);
    }
  }
  return lines;
}

/** The rows the list takes under the messages: its lines (at most six) and the border. */
export function reactorsRows(message: Message): number {
  const count = message.reactions.filter((r) => Object.values(r).some((u) => u.length)).length;
  return Math.min(MAX_REACTOR_LINES, Math.max(1, count)) + 2;
}

export function Reactors({
  width,
  message,
  onClose,
}: {
  width: number;
  message: Message;
  onClose: () => void;
}) {
  const theme = useTheme();
  const me = useMe();
  useBindings("reactors", { "reactors.close": onClose }, { priority: PRIORITY.dialog });
  let lines = reactorLines(message, me);
  if (lines.length === 0) lines = ["No reactions yet. r reacts."];
  if (lines.length > MAX_REACTOR_LINES) {
    const more = lines.length - (MAX_REACTOR_LINES - 1);
    lines = [...lines.slice(0, MAX_REACTOR_LINES - 1), `… and ${more} more`];
  }
  return (
    <Box
      width={width}
      height={lines.length + 2}
      borderStyle="round"
      borderColor={theme.focusBorder}
      paddingX={1}
      flexDirection="column"
    >
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one message, in order
        <Text key={i} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
