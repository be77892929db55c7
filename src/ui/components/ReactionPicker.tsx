// A row of common reactions: ←→ (or the digit) picks, Enter toggles yours, Esc closes.
import { Box, Text } from "ink";
import type { ScopeBinding } from "../bindings.ts";
import { COMMON_REACTIONS, emojiFor } from "../emoji.ts";
import { type ChooserMove, useRowChooser } from "../hooks/useRowChooser.ts";
import { terminalForm } from "../text/width.ts";
import { useTheme } from "../theme.ts";

const MOVES: Record<ScopeBinding<"reactions">, ChooserMove> = {
  "reaction.previous": "previous",
  "reaction.next": "next",
  "reaction.toggle": "pick",
  "reaction.toggleNumber": "pickNumber",
  "reaction.close": "close",
};

type Props = {
  width: number;
  mine: ReadonlySet<string>;
  onPick: (name: string) => void;
  onClose: () => void;
};

export function ReactionPicker({ width, mine, onPick, onClose }: Props) {
  const theme = useTheme();
  const choices = COMMON_REACTIONS;
  const index = useRowChooser({
    choices,
    scope: "reactions",
    moves: MOVES,
    onPick,
    onClose,
  });
  return (
    <Box width={width} height={3} borderStyle="round" borderColor={theme.focusBorder} paddingX={1}>
      <Text wrap="truncate-end">
        <Text bold>react </Text>
        {choices.map((name, i) => (
          <Text
            key={name}
            inverse={i === index}
            bold={mine.has(name)}
            color={mine.has(name) ? theme.accent : undefined}
          >
            {` ${i + 1}${terminalForm(emojiFor(name))} `}
          </Text>
        ))}
        <Text color={theme.dim}> ←→ Enter · Esc</Text>
      </Text>
    </Box>
  );
}
