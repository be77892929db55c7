// A message's links in a row, to choose the one `o` opens or `Y` copies: ←→ (or the digit)
// picks, Enter takes it, Esc closes. Long labels are cut; the row scrolls to the chosen one.
import { Box, Text } from "ink";
import { PRIORITY, useBindings } from "../keys/dispatcher.tsx";
import { useTheme } from "../look/theme.ts";
import type { MessageLink } from "../model/message-links.ts";
import { displayWidth, terminalForm, truncate } from "../text/width.ts";
import { useRowChooser } from "./use-row-chooser.ts";

type Props = {
  width: number;
  links: readonly MessageLink[];
  /** What Enter does: the row's title. */
  verb: "open" | "copy";
  onPick: (link: MessageLink) => void;
  onClose: () => void;
};

const LABEL_MAX = 32;
const TAIL = " ←→ Enter · Esc";

/** The chips from `first` on that fit in `room` columns, with the chosen one among them. */
export function visibleChips(chips: readonly string[], chosen: number, room: number): number {
  let first = 0;
  const widthFrom = (from: number) =>
    chips.slice(from, chosen + 1).reduce((sum, chip) => sum + displayWidth(chip), from > 0 ? 1 : 0);
  while (first < chosen && widthFrom(first) > room) first++;
  return first;
}

export function LinkPicker({ width, links, verb, onPick, onClose }: Props) {
  const theme = useTheme();
  const chooser = useRowChooser(links, onPick);
  const { index } = chooser;
  useBindings(
    "links",
    {
      "link.previous": chooser.previous,
      "link.next": chooser.next,
      "link.pick": chooser.pick,
      "link.pickNumber": chooser.pickNumber,
      "link.close": onClose,
    },
    { priority: PRIORITY.dialog },
  );
  const chips = links.map(
    (link, i) => ` ${i < 9 ? `${i + 1} ` : ""}${truncate(terminalForm(link.label), LABEL_MAX)} `,
  );
  const title = `${verb} `;
  const room = Math.max(1, width - 4 - title.length - TAIL.length);
  const first = visibleChips(chips, index, room);
  return (
    <Box width={width} height={3} borderStyle="round" borderColor={theme.focusBorder} paddingX={1}>
      <Text wrap="truncate-end">
        <Text bold>{title}</Text>
        {first > 0 ? <Text color={theme.dim}>…</Text> : null}
        {chips.slice(first).map((chip, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a message's links never reorder
          <Text key={first + n} inverse={first + n === index}>
            {chip}
          </Text>
        ))}
        <Text color={theme.dim}>{TAIL}</Text>
      </Text>
    </Box>
  );
}
