// A one-line prompt below the messages (a new conversation, an attachment): a label, the
// text being typed (edited like the composer: LineInput), anything the caller puts below
// it, and a line of keys.
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { useTheme } from "../look/theme.ts";
import { displayWidth } from "../text/width.ts";
import type { EditorState } from "./editor.ts";
import { LineInput } from "./line-input.tsx";
import type { ScreenCell } from "./terminal-cursor.tsx";

type Props = {
  width: number;
  label: string;
  state: EditorState;
  placeholder: string;
  hint: string;
  children?: ReactNode;
  /** The screen cell of the box's top-left corner, for the terminal's cursor. */
  origin?: ScreenCell;
  /**
   * The rows the layout keeps for the box, borders included: it fills them, its keys at
   * the bottom, so no row of them is left without a border when fewer choices show.
   */
  height?: number;
};

export function PromptBox(props: Props) {
  const theme = useTheme();
  return (
    <Box
      flexDirection="column"
      width={props.width}
      height={props.height}
      borderStyle="round"
      borderColor={theme.focusBorder}
      paddingX={1}
    >
      <Box>
        <Box flexShrink={0}>
          <Text bold>{props.label}</Text>
        </Box>
        <LineInput
          state={props.state}
          width={props.width - 4 - props.label.length}
          placeholder={props.placeholder}
          // Inside the border and the padding, after the label.
          origin={
            props.origin && {
              x: props.origin.x + 2 + displayWidth(props.label),
              y: props.origin.y + 1,
            }
          }
        />
      </Box>
      <Box flexDirection="column" flexGrow={1}>
        {props.children}
      </Box>
      <Text color={theme.dim} wrap="truncate-end">
        {props.hint}
      </Text>
    </Box>
  );
}
