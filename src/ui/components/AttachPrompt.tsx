// The prompt A opens on a message: the URL of a file to attach to it (and, after a space, a
// file name), added by the server to the attachments it has.
import { useState } from "react";
import { matchBinding } from "../bindings.ts";
import { PRIORITY, useKeypress } from "../input.tsx";
import { PromptBox } from "./PromptBox.tsx";

type Props = {
  width: number;
  onSubmit: (line: string) => void;
  onCancel: () => void;
};

export function AttachPrompt({ width, onSubmit, onCancel }: Props) {
  const [value, setValue] = useState("");
  useKeypress(
    (input, key) => {
      if (matchBinding("anywhere", input, key) === "global.quit") return false;
      switch (matchBinding("attach", input, key)) {
        case "attach.cancel":
          onCancel();
          break;
        case "attach.add":
          if (value.trim()) onSubmit(value);
          break;
        // Everything else is typing, for the text input only: no global key may see it.
        case "attach.type":
          break;
      }
      return true;
    },
    { priority: PRIORITY.dialog },
  );
  return (
    <PromptBox
      width={width}
      label="attach to this message: "
      value={value}
      onChange={setValue}
      placeholder="https://… [file name]"
      hint="an http(s) URL, then a name if not the URL's · Enter adds · Esc cancels"
    />
  );
}
