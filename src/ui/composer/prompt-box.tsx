// A one-line prompt below the messages (a new conversation, an attachment): a label, the
// text being typed (edited like the composer: LineInput), anything the caller puts below
// it, and a line of keys.
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { useTheme } from "../look/theme.ts";
import type { EditorState } from "./editor.ts";
import { LineInput } from "./line-input.tsx";

type Props = {
  width: number;
  label: string;
  state: EditorState;
  placeholder: string;
  hint: string;
  children?: ReactNode;
};

export function PromptBox(props: Props) {
  const theme = useTheme();
  return (
    <Box
      flexDirection="column"
      width={props.width}
      borderStyle="round"
      borderColor={theme.focusBorder}
      paddingX={1}
    >
      <Box>
        <Text bold>{props.label}</Text>
        <LineInput
          state={props.state}
          width={props.width - 4 - props.label.length}
          placeholder={props.placeholder}
        />
      </Box>
      {props.children}
      <Text color={theme.dim} wrap="truncate-end">
        {props.hint}
      </Text>
    </Box>
  );
}
