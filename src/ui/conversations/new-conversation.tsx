// The prompt for a new conversation: a contact id (ct_…) or a group id (grp_…),
// with the contacts seen so far suggested below it.
import { Text } from "ink";
import { useState } from "react";
import { useLineInput, usePromptKeys } from "../composer/line-input.tsx";
import { PromptBox } from "../composer/prompt-box.tsx";
import type { ScreenCell } from "../composer/terminal-cursor.tsx";
import { matchBinding } from "../keys/bindings.ts";
import { useContacts } from "../screen/session-context.tsx";
import { screenText } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";

type Props = {
  width: number;
  /** The screen cell of the prompt's top-left corner. */
  origin?: ScreenCell;
  me: string | undefined;
  onSubmit: (id: string) => void;
  onCancel: () => void;
};

export function NewConversation({ width, me, onSubmit, onCancel, origin }: Props) {
  const contacts = useContacts();
  const [value, setValue] = useState("");
  const [pick, setPick] = useState(-1);
  const line = useLineInput("", (next) => {
    setValue(next);
    setPick(-1);
  });
  const query = value.trim().toLowerCase();
  const suggestions = [...contacts.values()]
    .filter((c) => c.username !== me)
    .filter(
      (c) =>
        !query || c.username.toLowerCase().includes(query) || c.id.toLowerCase().includes(query),
    )
    .slice(0, 5);
  usePromptKeys(line, (input, key) => {
    switch (matchBinding("new conversation", input, key)) {
      case "newConversation.cancel":
        onCancel();
        return;
      case "newConversation.down":
        setPick((p) => Math.min(suggestions.length - 1, p + 1));
        return;
      case "newConversation.up":
        setPick((p) => Math.max(-1, p - 1));
        return;
      case "newConversation.start": {
        const chosen = pick >= 0 ? suggestions[pick]?.id : value.trim();
        if (chosen) onSubmit(chosen);
        return;
      }
      // Everything else is typing, for the text input only: no global key may see it.
      case "newConversation.type":
        return "type";
    }
  });
  return (
    <PromptBox
      width={width}
      origin={origin}
      label="new conversation with: "
      state={line.state}
      placeholder="ct_… or grp_…"
      hint="↑↓ pick a contact seen so far · Enter starts · Esc cancels"
    >
      {suggestions.map((c, i) => (
        <Text key={c.id} inverse={i === pick} wrap="truncate-end">
          {truncate(`  ${screenText(c.username)}  ${screenText(c.id)}`, width - 4)}
        </Text>
      ))}
    </PromptBox>
  );
}
