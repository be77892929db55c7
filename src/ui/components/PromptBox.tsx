// A one-line prompt below the messages (a new conversation, an attachment): a label, the
// text input, anything the caller puts below it, and a line of keys.
import { Box, Text } from "ink";
import TextInput from "ink-text-input";
import type { ReactNode } from "react";
import { useTheme } from "../theme.ts";

type Props = {
  width: number;
  label: string;
  value: string;
  onChange: (value: string) => void;
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
        <TextInput value={props.value} onChange={props.onChange} placeholder={props.placeholder} />
      </Box>
      {props.children}
      <Text color={theme.dim} wrap="truncate-end">
        {props.hint}
      </Text>
    </Box>
  );
}
