// A row of common reactions: ←→ (or the digit) picks, Enter toggles yours, Esc closes.
import { Box, Text } from "ink";
import { useState } from "react";
import { COMMON_REACTIONS, emojiFor } from "../emoji.ts";
import { PRIORITY, useKeypress } from "../input.tsx";
import { terminalForm } from "../text.ts";
import { useTheme } from "../theme.ts";

type Props = {
  width: number;
  mine: ReadonlySet<string>;
  onPick: (name: string) => void;
  onClose: () => void;
};

export function ReactionPicker({ width, mine, onPick, onClose }: Props) {
  const theme = useTheme();
  const [index, setIndex] = useState(0);
  const choices = COMMON_REACTIONS;
  useKeypress(
    (input, key) => {
      if (key.ctrl && input === "c") return false;
      if (key.escape || input === "q") onClose();
      else if (key.leftArrow || input === "h")
        setIndex((i) => (i + choices.length - 1) % choices.length);
      else if (key.rightArrow || input === "l" || key.tab)
        setIndex((i) => (i + 1) % choices.length);
      else if (key.return) onPick(choices[index]!);
      else if (/^[1-9]$/.test(input) && Number(input) <= choices.length)
        onPick(choices[Number(input) - 1]!);
      return true;
    },
    { priority: PRIORITY.dialog },
  );
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
