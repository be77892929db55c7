// A one-line prompt's text: its editing state (line-editor.ts, the composer's model on one
// line) and how it is drawn, cursor included. The prompt that owns it passes it the keys
// it does not take itself, so every key goes through the app's one dispatcher.
import { Box, type Key, Text } from "ink";
import { useState } from "react";
import type { Scope } from "../keys/binding.ts";
import { type Handlers, PRIORITY, useBindings } from "../keys/dispatcher.tsx";
import { useTheme } from "../look/theme.ts";
import { createStore, useStore } from "../screen/observable.ts";
import { displayWidth } from "../text/width.ts";
import type { EditorState } from "./editor.ts";
import { applyLineKey, isTextThenEnter, lineState, lineView, pasteLine } from "./line-editor.ts";
import { type ScreenCell, TerminalCursor } from "./terminal-cursor.tsx";

export type LineInputState = {
  state: EditorState;
  /** Applies a key to the latest text (keys of one read each see the one before). */
  key(input: string, key: Key): boolean;
  /**
   * A key the prompt leaves to typing: applied, and taken (true) so that no other handler
   * sees it; but text and Enter in one read are left (false) for the dispatcher to split
   * into keys, so the text is typed before Enter acts.
   */
  type(input: string, key: Key): boolean;
  /** A paste, as the prompt's `onPaste`. */
  paste(text: string): boolean;
};

/** A prompt's text, starting as `initial`; `onChange` hears every new value. */
export function useLineInput(initial: string, onChange?: (value: string) => void): LineInputState {
  const [store] = useState(() => createStore(lineState(initial)));
  const state = useStore(store);
  const apply = (next: EditorState) => {
    const before = store.get();
    if (next === before) return;
    store.set(next);
    if (next.value !== before.value) onChange?.(next.value);
  };
  const key = (input: string, key: Key) => {
    const result = applyLineKey(store.get(), input, key);
    apply(result.state);
    return result.handled;
  };
  return {
    state,
    key,
    type(input, pressed) {
      if (isTextThenEnter(input, pressed)) return false;
      key(input, pressed);
      return true;
    },
    paste(text) {
      apply(pasteLine(store.get(), text));
      return true;
    },
  };
}

type LineInputProps = {
  state: EditorState;
  width: number;
  placeholder: string;
  /**
   * The screen cell of the line's first column: with it, the terminal's own cursor shows
   * where the text is typed (TerminalCursor); without it, an inverse cell is drawn there.
   */
  origin?: ScreenCell;
};

export function LineInput(props: LineInputProps) {
  const theme = useTheme();
  const { origin } = props;
  const cursorCell = (column: number) =>
    origin ? <TerminalCursor x={origin.x + column} y={origin.y} /> : null;
  if (props.state.value === "") {
    return (
      <Text wrap="truncate-end">
        {cursorCell(0)}
        {origin ? " " : <Text inverse> </Text>}
        <Text color={theme.placeholder} dimColor={!theme.color}>
          {props.placeholder}
        </Text>
      </Text>
    );
  }
  const view = lineView(props.state, props.width);
  return (
    <Text wrap="truncate-end">
      {cursorCell(displayWidth(view.before))}
      {view.before}
      {origin ? view.under || " " : <Text inverse>{view.under || " "}</Text>}
      {view.after}
    </Text>
  );
}

/**
 * A prompt's keys, above the panes: `handlers` are those of its scope (Enter, Esc, ↑↓…, and
 * `line.type` for the rest, which edit the line); pastes go to the line.
 */
export function usePromptKeys<S extends Scope>(
  line: LineInputState,
  scope: S,
  handlers: Handlers<S>,
): void {
  useBindings(scope, handlers, { priority: PRIORITY.dialog, onPaste: line.paste });
}

/** A search prompt's line: `/ ` and the text being typed (the list's and the messages'). */
export function SearchLine(props: {
  state: EditorState;
  width: number;
  placeholder: string;
  /** The screen cell of the `/`. */
  origin?: ScreenCell;
}) {
  const theme = useTheme();
  const { origin } = props;
  return (
    <Box height={1}>
      {/* Not shrunk by a long placeholder beside it: the text starts two columns in. */}
      <Box flexShrink={0}>
        <Text color={theme.accent}>/ </Text>
      </Box>
      <LineInput
        state={props.state}
        width={props.width}
        placeholder={props.placeholder}
        origin={origin && { x: origin.x + 2, y: origin.y }}
      />
    </Box>
  );
}
