// Every key, over the whole body of the screen: two columns when wide enough, and
// scrollable (↑↓ PgUp PgDn) when the terminal is short; any other key closes it.
import { Box, Text } from "ink";
import { useState } from "react";
import { PRIORITY, useBindings } from "../keys/dispatcher.tsx";
import { useTheme } from "../look/theme.ts";
import { useNewsMode } from "../queries/live.ts";
import { displayWidth, padEnd, truncate } from "../text/width.ts";
import { wrap } from "../text/wrap.ts";
import { helpSections, MOUSE_HELP } from "./help-table.ts";

type HelpLine = { text: string; heading?: boolean };

function helpLines(width: number, mouse: boolean): HelpLine[] {
  // Narrow (60 columns), the keys take less room and what they do wraps under itself:
  // nothing of it is cut.
  const keyWidth = Math.min(30, Math.floor(width * (width < 70 ? 0.36 : 0.42)));
  const doesWidth = Math.max(10, width - keyWidth - 3);
  const lines: HelpLine[] = [];
  const help = helpSections();
  const sections = mouse ? [...help, { where: "mouse", rows: MOUSE_HELP }] : help;
  for (const section of sections) {
    if (lines.length > 0) lines.push({ text: "" });
    lines.push({ text: section.where, heading: true });
    for (const k of section.rows) {
      const keys = displayWidth(k.keys) > keyWidth ? [k.keys] : [];
      const does = wrap(k.does, doesWidth);
      const first = keys.length > 0 ? "" : k.keys;
      for (const key of keys) lines.push({ text: truncate(`  ${key}`, width) });
      does.forEach((part, i) => {
        lines.push({
          text: truncate(`  ${padEnd(i === 0 ? first : "", keyWidth)} ${part}`, width),
        });
      });
    }
  }
  return lines;
}

export function Help({
  width,
  height,
  mouse = false,
  onClose,
}: {
  width: number;
  height: number;
  /** Whether the mouse is on: its section shows then. */
  mouse?: boolean;
  onClose: () => void;
}) {
  const theme = useTheme();
  const news = useNewsMode();
  const [offset, setOffset] = useState(0);
  const inner = width - 4;
  // Two columns only where each keeps a full line (about 66 columns).
  const twoColumns = inner >= 134;
  const columnWidth = twoColumns ? Math.floor((inner - 2) / 2) : inner;
  const lines = helpLines(columnWidth, mouse);
  const rows = Math.max(1, height - 3);
  // In two columns, a section never starts at the bottom of the first one.
  const split = twoColumns ? lines.findIndex((l, i) => l.heading && i >= lines.length / 2 - 4) : -1;
  const columns = split > 0 ? [lines.slice(0, split), lines.slice(split)] : [lines];
  const longest = Math.max(...columns.map((c) => c.length));
  const maxOffset = Math.max(0, longest - rows);
  const scroll = (delta: number) => setOffset((o) => Math.max(0, Math.min(maxOffset, o + delta)));
  useBindings(
    "help",
    {
      "help.up": () => scroll(-1),
      "help.down": () => scroll(1),
      "help.pageUp": () => scroll(-rows),
      "help.pageDown": () => scroll(rows),
      "help.close": onClose,
    },
    { priority: PRIORITY.dialog },
  );
  const atEnd = offset + rows >= longest;
  const more = maxOffset > 0 ? ` · ↑↓ scroll (${atEnd ? "end" : "more below"})` : "";
  const brief = maxOffset > 0 ? ` · ${atEnd ? "↑ end" : "↓ more"}` : "";
  // The title whole where it fits; narrower, shorter (at 60x20 it was cut mid-word).
  // Narrow, the status bar says that any other key closes it.
  const title =
    [
      `parley keys · news: ${news}${more} · any other key closes`,
      `parley keys · news: ${news}${more}`,
      `parley keys · news: ${news}${brief}`,
      `keys · ${news}${brief}`,
    ].find((t) => displayWidth(t) <= inner) ?? `keys${brief}`;
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="double"
      borderColor={theme.focusBorder}
      paddingX={1}
    >
      <Text bold color={theme.accent} wrap="truncate-end">
        {title}
      </Text>
      <Box flexDirection="row" height={rows}>
        {columns.map((column, c) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
          <Box key={c} flexDirection="column" width={columnWidth} marginRight={c === 0 ? 2 : 0}>
            {column.slice(offset, offset + rows).map((line, i) => (
              <Text
                // biome-ignore lint/suspicious/noArrayIndexKey: static table
                key={i}
                bold={line.heading}
                color={line.heading ? theme.accent : undefined}
                wrap="truncate-end"
              >
                {line.text || " "}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
