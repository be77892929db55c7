import { SearchLine, useLineInput, usePromptKeys } from "../composer/line-input.tsx";
import type { ScreenCell } from "../composer/terminal-cursor.tsx";

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
  usePromptKeys(line, "message search", {
    "messageSearch.run": props.onSubmit,
    "messageSearch.cancel": props.onCancel,
    // Everything else is typing, for the prompt only: no other key handler may see it.
    "messageSearch.type": line.type,
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
