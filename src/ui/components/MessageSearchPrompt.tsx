// The message pane's search prompt, on its title line: it owns the keys while open
// (Enter searches, Esc cancels, the rest is typing).
import { Box, type Key, Text } from "ink";
import { matchBinding } from "../bindings.ts";
import { PRIORITY, useKeypress } from "../input.tsx";
import { useTheme } from "../theme.ts";
import { LineInput, useLineInput } from "./LineInput.tsx";

export function MessageSearchPrompt(props: {
  query: string;
  width: number;
  onChange: (query: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const theme = useTheme();
  const line = useLineInput(props.query, props.onChange);
  useKeypress(
    (input: string, key: Key) => {
      if (matchBinding("anywhere", input, key) === "global.quit") return false;
      switch (matchBinding("message search", input, key)) {
        case "messageSearch.run":
          props.onSubmit();
          break;
        case "messageSearch.cancel":
          props.onCancel();
          break;
        // Everything else is typing, for the prompt only: no other key handler may see it.
        case "messageSearch.type":
          return line.type(input, key);
      }
      return true;
    },
    { priority: PRIORITY.dialog, onPaste: line.paste },
  );
  return (
    <Box height={1}>
      <Text color={theme.accent}>/ </Text>
      <LineInput
        state={line.state}
        width={Math.max(1, props.width - 2)}
        placeholder="search this conversation · Enter searches · Esc cancels"
      />
    </Box>
  );
}
