// A one-line prompt's text: its editing state (lineInput.ts, the composer's model on one
// line) and how it is drawn, cursor included. The prompt that owns it passes it the keys
// it does not take itself, so every key goes through the app's one dispatcher.
import { type Key, Text } from "ink";
import { useState } from "react";
import type { EditorState } from "../editor.ts";
import { applyLineKey, lineState, lineView, pasteLine } from "../lineInput.ts";
import { createStore, useStore } from "../store.ts";
import { useTheme } from "../theme.ts";

export type LineInputState = {
  state: EditorState;
  /** Applies a key to the latest text (keys of one read each see the one before). */
  key(input: string, key: Key): boolean;
  paste(text: string): void;
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
  return {
    state,
    key(input, key) {
      const result = applyLineKey(store.get(), input, key);
      apply(result.state);
      return result.handled;
    },
    paste(text) {
      apply(pasteLine(store.get(), text));
    },
  };
}

export function LineInput(props: { state: EditorState; width: number; placeholder: string }) {
  const theme = useTheme();
  if (props.state.value === "") {
    return (
      <Text wrap="truncate-end">
        <Text inverse> </Text>
        <Text color={theme.placeholder} dimColor={!theme.color}>
          {props.placeholder}
        </Text>
      </Text>
    );
  }
  const view = lineView(props.state, props.width);
  return (
    <Text wrap="truncate-end">
      {view.before}
      <Text inverse>{view.under || " "}</Text>
      {view.after}
    </Text>
  );
}
