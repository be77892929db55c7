import { SearchLine, useLineInput, usePromptKeys } from "../composer/line-input.tsx";
import type { ScreenCell } from "../composer/terminal-cursor.tsx";
import { matchBinding } from "../keys/bindings.ts";

export function MessageSearchPrompt(props: {
  /** The screen cell of the `/`. */
  origin?: ScreenCell;
  query: string;
  width: number;
  onChange: (query: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const line = useLineInput(props.query, props.onChange);
  usePromptKeys(line, (input, key) => {
    switch (matchBinding("message search", input, key)) {
      case "messageSearch.run":
        props.onSubmit();
        return;
      case "messageSearch.cancel":
        props.onCancel();
        return;
      // Everything else is typing, for the prompt only: no other key handler may see it.
      case "messageSearch.type":
        return "type";
    }
  });
  return (
    <SearchLine
      state={line.state}
      width={Math.max(1, props.width - 2)}
      placeholder="search this conversation · Enter searches · Esc cancels"
      origin={props.origin}
    />
  );
}
