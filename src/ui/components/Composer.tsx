// The composer: a multi-line draft edited by grapheme (see editor.ts for why this is not
// ink-text-input). Enter sends, Esc goes back to the messages, ↑ on an empty draft edits
// your last message, a bracketed paste of several lines becomes one draft.
import { type Key, Text } from "ink";
import { matchBinding } from "../bindings.ts";
import { applyKey, type EditorState, insert, layoutDraft } from "../editor.ts";
import { type Drafts, useDraft } from "../hooks/useDrafts.ts";
import { PRIORITY, useKeypress } from "../input.tsx";
import { displayWidth, terminalForm } from "../text/width.ts";
import { useTheme } from "../theme.ts";
import { Panel } from "./Panel.tsx";

export const COMPOSER_MAX_LINES = 5;

type Props = {
  width: number;
  focused: boolean;
  drafts: Drafts;
  conversationId: string;
  label: string | undefined;
  placeholder: string;
  onSubmit: (text: string) => void;
  onEscape: () => void;
  onEditLast: () => void;
};

/** Rows the composer needs for this draft at this width, borders included. */
export function composerHeight(draft: EditorState, width: number): number {
  const lines = layoutDraft(draft, Math.max(1, width - 4)).lines.length;
  return Math.min(COMPOSER_MAX_LINES, Math.max(1, lines)) + 2;
}

const segmenter = new Intl.Segmenter();

/** Splits a line at a display column, without splitting a grapheme. */
function splitAtColumn(line: string, column: number): [string, string, string] {
  let width = 0;
  let index = 0;
  for (const { segment } of segmenter.segment(line)) {
    if (width >= column) break;
    width += displayWidth(segment);
    index += segment.length;
  }
  const rest = line.slice(index);
  const first = segmenter.segment(rest)[Symbol.iterator]().next();
  const under = first.done ? "" : first.value.segment;
  return [line.slice(0, index), under, rest.slice(under.length)];
}

export function Composer(props: Props) {
  const theme = useTheme();
  const { drafts, conversationId, focused } = props;
  const draft = useDraft(drafts, conversationId);
  const edit = (change: (current: EditorState) => EditorState) =>
    drafts.update(conversationId, change);
  const inner = Math.max(1, props.width - 4);
  useKeypress(
    (input: string, key: Key) => {
      const action = matchBinding("composer", input, key);
      if (action === "composer.send") {
        if (draft.value.trim()) props.onSubmit(draft.value);
        return true;
      }
      if (action === "composer.back") {
        props.onEscape();
        return true;
      }
      if (action === "composer.editLast" && draft.value === "") {
        props.onEditLast();
        return true;
      }
      const anywhere = matchBinding("anywhere", input, key);
      if (anywhere === "global.nextPane" || anywhere === "global.previousPane") return false;
      // Typed text and Enter that arrive in one read (fast typing, a slow SSH link) are
      // the text, then a send; only a bracketed paste makes a multi-line draft.
      if (input.length > 1 && input.endsWith("\r") && !input.slice(0, -1).includes("\r")) {
        const next = insert(draft, input.slice(0, -1));
        edit(() => next);
        if (next.value.trim()) props.onSubmit(next.value);
        return true;
      }
      if (applyKey(draft, input, key, { width: inner }).handled) {
        edit((current) => applyKey(current, input, key, { width: inner }).state);
        return true;
      }
      // Alt+Enter / Shift+Enter: a new line in the draft.
      if (action === "composer.newLine") {
        edit((current) => insert(current, "\n"));
        return true;
      }
      return false;
    },
    {
      priority: PRIORITY.pane,
      isActive: focused,
      onPaste: (text) => {
        edit((current) => insert(current, text));
        return true;
      },
    },
  );

  const layout = layoutDraft(draft, inner);
  const rows = Math.min(COMPOSER_MAX_LINES, Math.max(1, layout.lines.length));
  const first = Math.max(0, Math.min(layout.cursorLine - rows + 1, layout.lines.length - rows));
  const shown = layout.lines.slice(first, first + rows);
  const empty = draft.value === "";
  return (
    <Panel width={props.width} height={rows + 2} focused={focused} paddingX={1}>
      {empty ? (
        <Text wrap="truncate-end">
          {focused ? <Text inverse> </Text> : null}
          <Text color={theme.placeholder} dimColor={theme.faint}>
            {props.label ? `${props.label} · ` : ""}
            {props.placeholder}
          </Text>
        </Text>
      ) : (
        shown.map((line, i) => {
          const lineIndex = first + i;
          if (!focused || lineIndex !== layout.cursorLine) {
            return (
              <Text key={lineIndex} wrap="truncate-end">
                {terminalForm(line) || " "}
              </Text>
            );
          }
          const [before, under, after] = splitAtColumn(line, layout.cursorColumn);
          return (
            <Text key={lineIndex} wrap="truncate-end">
              {terminalForm(before)}
              <Text inverse>{terminalForm(under) || " "}</Text>
              {terminalForm(after)}
            </Text>
          );
        })
      )}
    </Panel>
  );
}
