// The prompt A opens on a message: the URL of a file to attach to it (and, after a space, a
// file name), added by the server to the attachments it has.

import { useLineInput, usePromptKeys } from "../composer/line-input.tsx";
import { PromptBox } from "../composer/prompt-box.tsx";
import type { ScreenCell } from "../composer/terminal-cursor.tsx";

type Props = {
  width: number;
  /** The screen cell of the prompt's top-left corner. */
  origin?: ScreenCell;
  onSubmit: (line: string) => void;
  onCancel: () => void;
};

export function AttachPrompt({ width, onSubmit, onCancel, origin }: Props) {
  const line = useLineInput("");
  usePromptKeys(line, "attach", {
    "attach.cancel": onCancel,
    "attach.add": () => {
      if (line.state.value.trim()) onSubmit(line.state.value);
    },
    // Everything else is typing, for the text input only: no global key may see it.
    "attach.type": line.type,
  });
  return (
    <PromptBox
      width={width}
      origin={origin}
      label="attach to this message: "
      state={line.state}
      placeholder="https://… [file name]"
      hint="an http(s) URL, then a name if not the URL's · Enter adds · Esc cancels"
    />
  );
}
