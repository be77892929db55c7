// A row of common reactions: ←→ (or the digit) picks, Enter toggles yours, Esc closes.
// `:` turns it into a name prompt (`:wave`) that completes from the names used in the
// conversation and every short code node-emoji knows; any valid name may be used. The
// pick toggles your reaction on the message (messages/actions.ts) and closes the picker.
import { Box, Text } from "ink";
import { useState } from "react";
import type { Message } from "../../api/schema.ts";
import { useChatActions, useChatState } from "../chat/chat-context.tsx";
import { PRIORITY, useBindings } from "../keys/dispatcher.tsx";
import { useTheme } from "../look/theme.ts";
import { myReactions } from "../model/reactions.ts";
import { displayWidth, terminalForm } from "../text/width.ts";
import { COMMON_REACTIONS, emojiFor } from "./emoji.ts";
import { completeReaction, reactionNameChar } from "./reaction-names.ts";
import { useRowChooser } from "./use-row-chooser.ts";

type Props = {
  width: number;
  /** The message reacted to. */
  message: Message;
  /** Reaction names already used in the conversation, most used first. */
  used: readonly string[];
};

/** What the picker shows for a name: its emoji and the name, or `:name:` when unknown. */
function shown(name: string): string {
  const emoji = emojiFor(name);
  return emoji.startsWith(":") ? emoji : `${terminalForm(emoji)} ${name}`;
}

export function ReactionPicker({ width, message, used }: Props) {
  const theme = useTheme();
  const { me } = useChatState();
  const { messages, dialogs } = useChatActions();
  const mine = myReactions(message, me);
  const onClose = dialogs.close;
  const onPick = (name: string) => {
    messages.toggleReaction(message, name);
    dialogs.close();
  };
  /** The typed name, while typing one (null: the row of common reactions). */
  const [query, setQuery] = useState<string | null>(null);
  const [choice, setChoice] = useState(0);
  const choices = COMMON_REACTIONS;
  const completions = query === null ? [] : completeReaction(query, used);
  const chosen = completions[Math.min(choice, completions.length - 1)];

  // The row of common reactions is a chooser like the link chooser; `:` hands the keys to
  // the name prompt until it goes back.
  const chooser = useRowChooser(choices, onPick);
  const index = chooser.index;
  useBindings(
    "reactions",
    {
      "reaction.previous": chooser.previous,
      "reaction.next": chooser.next,
      "reaction.toggle": chooser.pick,
      "reaction.toggleNumber": chooser.pickNumber,
      "reaction.close": onClose,
      "reaction.name": () => {
        setQuery("");
        setChoice(0);
      },
    },
    { priority: PRIORITY.dialog, isActive: query === null },
  );
  useBindings(
    "reaction name",
    {
      "reactionName.next": () =>
        setChoice((c) => (completions.length ? (c + 1) % completions.length : 0)),
      "reactionName.previous": () =>
        setChoice((c) =>
          completions.length ? (c + completions.length - 1) % completions.length : 0,
        ),
      "reactionName.pick": () => {
        if (chosen) onPick(chosen);
      },
      "reactionName.erase": () => {
        setQuery((q) => (q ? q.slice(0, -1) : null));
        setChoice(0);
      },
      "reactionName.back": () => setQuery(null),
      "reactionName.type": (input) => {
        const typed = [...input].map(reactionNameChar);
        if (typed.every((ch) => ch !== undefined) && typed.length > 0) {
          setQuery((q) => `${q ?? ""}${typed.join("")}`.slice(0, 32));
          setChoice(0);
        }
      },
    },
    { priority: PRIORITY.dialog, isActive: query !== null },
  );

  if (query !== null) {
    // The chosen completion first in view: the ones before it scroll off to the left.
    const from = Math.max(0, Math.min(choice, completions.length - 1) - 2);
    return (
      <Box
        width={width}
        height={3}
        borderStyle="round"
        borderColor={theme.focusBorder}
        paddingX={1}
      >
        <Text wrap="truncate-end">
          <Text bold>react :</Text>
          <Text color={theme.accent}>{query}</Text>
          <Text inverse> </Text>
          {completions.length === 0 ? (
            <Text color={theme.dim}> type a name: a-z 0-9 _ + -</Text>
          ) : (
            completions.slice(from).map((name) => (
              <Text
                key={name}
                inverse={name === chosen}
                bold={mine.has(name)}
                color={mine.has(name) ? theme.accent : undefined}
              >
                {`  ${shown(name)} `}
              </Text>
            ))
          )}
        </Text>
      </Box>
    );
  }
  const labels = choices.map((name, i) => ` ${i < 9 ? i + 1 : ""}${terminalForm(emojiFor(name))} `);
  // The bar's own hint only where it fits whole: the status bar says the keys in full.
  const hint = " ←→ Enter · Esc · : by name";
  const room = displayWidth(`react ${labels.join("")}${hint}`);
  return (
    <Box width={width} height={3} borderStyle="round" borderColor={theme.focusBorder} paddingX={1}>
      <Text wrap="truncate-end">
        <Text bold>react </Text>
        {choices.map((name, i) => (
          <Text
            key={name}
            inverse={i === index}
            bold={mine.has(name)}
            color={mine.has(name) ? theme.accent : undefined}
          >
            {labels[i]}
          </Text>
        ))}
        {room <= width - 4 ? <Text color={theme.dim}>{hint}</Text> : null}
      </Text>
    </Box>
  );
}
