// A row of common reactions: ←→ (or the digit) picks, Enter toggles yours, Esc closes.
import { Box, Text } from "ink";
import { useState } from "react";
import { matchBinding } from "../bindings.ts";
import { COMMON_REACTIONS, emojiFor } from "../emoji.ts";
import { PRIORITY, useKeypress } from "../input.tsx";
import { terminalForm } from "../text/width.ts";
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
      if (matchBinding("anywhere", input, key) === "global.quit") return false;
      switch (matchBinding("reactions", input, key)) {
        case "reaction.close":
          onClose();
          break;
        case "reaction.previous":
          setIndex((i) => (i + choices.length - 1) % choices.length);
          break;
        case "reaction.next":
          setIndex((i) => (i + 1) % choices.length);
          break;
        case "reaction.toggle":
          onPick(choices[index]!);
          break;
        case "reaction.toggleNumber": {
          // The binding's keys are the digits 1 to 9: the input is the number.
          const choice = choices[Number(input) - 1];
          if (choice) onPick(choice);
          break;
        }
      }
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
