// Renders pre-wrapped lines of segments: one <Text> per line, never wrapped by Ink. A
// segment with a link is drawn inside an OSC 8 hyperlink, which takes no columns: Ink
// measures text without it and carries it to the cells it covers (src/ui/ink/output.ts).
import { Text } from "ink";
import { memo } from "react";
import { senderColor } from "../look/sender-color.ts";
import { type Theme, useTheme } from "../look/theme.ts";
import { hyperlink } from "../text/links.ts";
import type { Line, Tone } from "./message-lines.ts";

export function toneColor(theme: Theme, tone: Tone | undefined): string | undefined {
  switch (tone) {
    case "self":
      return theme.self;
    case "other":
      return theme.other;
    case "dim":
      return theme.dim;
    case "error":
      return theme.error;
    case "accent":
      return theme.accent;
    case "unread":
      return theme.unread;
    case "mention":
      return theme.mention;
    default:
      return undefined;
  }
}

export const LineView = memo(function LineView({ line, marker }: { line: Line; marker?: string }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end">
      {marker !== undefined ? <Text color={theme.accent}>{marker}</Text> : null}
      {line.map((segment, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of a line never reorder
          key={i}
          color={
            segment.sender !== undefined
              ? senderColor(theme, segment.sender)
              : toneColor(theme, segment.tone)
          }
          bold={segment.bold || segment.tone === "mention"}
          inverse={segment.inverse}
          dimColor={theme.faint && segment.tone === "dim"}
        >
          {segment.link ? hyperlink(segment.text, segment.link.url, segment.link.id) : segment.text}
        </Text>
      ))}
    </Text>
  );
});
