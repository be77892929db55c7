// The message pane's search prompt, on its title line: it owns the keys while open
// (Enter searches, Esc cancels, the rest is typing).
import { Box, type Key, Text } from "ink";
import TextInput from "ink-text-input";
import { matchBinding } from "../bindings.ts";
import { PRIORITY, useKeypress } from "../input.tsx";
import { useTheme } from "../theme.ts";

export function MessageSearchPrompt(props: {
  query: string;
  onChange: (query: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const theme = useTheme();
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
          break;
      }
      return true;
    },
    { priority: PRIORITY.dialog },
  );
  return (
    <Box height={1}>
      <Text color={theme.accent}>/ </Text>
      <TextInput
        value={props.query}
        onChange={props.onChange}
        placeholder="search this conversation · Enter searches · Esc cancels"
      />
    </Box>
  );
}
