// The bordered box every pane is drawn in. Focus shows in the border's colour, and
// without colour (NO_COLOR) as a double border, so it never depends on colour alone.
import { Box, type DOMElement, Text } from "ink";
import type { ReactNode, RefObject } from "react";
import { useTheme } from "../look/theme.ts";

type PanelProps = {
  width: number;
  height?: number;
  focused: boolean;
  paddingX?: number;
  /** The box on screen, for mouse events over it (keys/dispatcher.tsx useMouse). */
  boxRef?: RefObject<DOMElement | null>;
  children: ReactNode;
};

export function Panel({ width, height, focused, paddingX, boxRef, children }: PanelProps) {
  const theme = useTheme();
  return (
    <Box
      ref={boxRef}
      flexDirection="column"
      width={width}
      height={height}
      borderStyle={focused && !theme.color ? "double" : "round"}
      borderColor={focused ? theme.focusBorder : theme.border}
      paddingX={paddingX}
    >
      {children}
    </Box>
  );
}

/** A few centred lines in a box: what to do when there is nothing else to show. */
export function CenteredNote({
  width,
  height,
  lines,
  alert = false,
}: {
  width: number;
  height: number;
  lines: string[];
  alert?: boolean;
}) {
  const theme = useTheme();
  return (
    <Box
      width={width}
      height={height}
      borderStyle="round"
      borderColor={alert ? theme.error : theme.border}
      flexDirection="column"
      justifyContent="center"
      alignItems="center"
      paddingX={1}
    >
      {lines.map((line, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: static lines
          key={i}
          bold={i === 0}
          color={i === 0 ? (alert ? theme.error : undefined) : theme.dim}
          wrap="wrap"
        >
          {line}
        </Text>
      ))}
    </Box>
  );
}
