// The composer: a multi-line draft edited by grapheme (see editor.ts for why this is not
// ink-text-input). Enter sends, Esc goes back to the messages, ↑ on an empty draft edits
// your last message, a bracketed paste of several lines becomes one draft. The draft's
// attachments (added with /attach) show above its text, one `📎 name · KIND` row each.
import { Box, type DOMElement, type Key, Text } from "ink";
import { useRef } from "react";
import { useChatActions, useChatState } from "../chat/chat-context.tsx";
import { activeBindings } from "../keys/bindings.ts";
import { onBindings, PRIORITY, useKeypress, useMouse } from "../keys/dispatcher.tsx";
import { useTheme } from "../look/theme.ts";
import { useUploadLimit } from "../queries/uploads.ts";
import { Panel } from "../screen/panel.tsx";
import { formatBytes } from "../text/format.ts";
import { graphemes } from "../text/graphemes.ts";
import { screenText } from "../text/sanitize.ts";
import { displayWidth, terminalForm } from "../text/width.ts";
import { attachmentLabel, type DraftAttachment } from "./commands.ts";
import { applyKey, type EditorState, insert, layoutDraft } from "./editor.ts";
import { lengthNote } from "./length-note.ts";
import { type ScreenCell, TerminalCursor } from "./terminal-cursor.tsx";
import type { Completion } from "./use-completion.ts";
import { useDraft, useShownAttachments } from "./use-drafts.ts";
import { useExternalEditor } from "./use-external-editor.ts";

export const COMPOSER_MAX_LINES = 5;

type Props = {
  width: number;
  /** ↑ on an empty draft: edit your last message. */
  onEditLast: () => void;
  /**
   * The screen cell of the composer's top-left corner. With it, the focused composer puts
   * the terminal's cursor where it types; without it, it draws an inverse cell there.
   */
  origin?: ScreenCell;
  /** The @name / :emoji completion at the cursor (use-completion.ts), if any. */
  completion?: Completion;
};

/** At most this many attachment rows; with more, the last says how many are not shown. */
const ATTACHMENT_ROWS = 4;

/** The rows that show a draft's attachments. */
function attachmentRows(list: readonly DraftAttachment[]): string[] {
  const numbered = list.map((a, i) => {
    const label = attachmentLabel(a);
    return list.length > 1 ? label.replace("📎 ", `📎 ${i + 1} `) : label;
  });
  if (numbered.length <= ATTACHMENT_ROWS) return numbered;
  const shown = numbered.slice(0, ATTACHMENT_ROWS - 1);
  return [...shown, `📎 … ${numbered.length - shown.length} more (/detach N removes one)`];
}

/**
 * Rows the composer needs for this draft (its attachments, and its count near the limit)
 * at this width, borders included; and the completion list's row above it when it shows.
 */
export function composerHeight(
  draft: EditorState,
  width: number,
  attachments = 0,
  completionShown = false,
): number {
  const lines = layoutDraft(draft, Math.max(1, width - 4)).lines.length;
  const count = lengthNote(draft.value) ? 1 : 0;
  return (
    Math.min(COMPOSER_MAX_LINES, Math.max(1, lines)) +
    2 +
    Math.min(ATTACHMENT_ROWS, attachments) +
    count +
    (completionShown ? 1 : 0)
  );
}

/** Splits a line at a display column, without splitting a grapheme. */
function splitAtColumn(line: string, column: number): [string, string, string] {
  let width = 0;
  let index = 0;
  for (const { segment } of graphemes.segment(line)) {
    if (width >= column) break;
    width += displayWidth(segment);
    index += segment.length;
  }
  const rest = line.slice(index);
  const first = graphemes.segment(rest)[Symbol.iterator]().next();
  const under = first.done ? "" : first.value.segment;
  return [line.slice(0, index), under, rest.slice(under.length)];
}

/** The open conversation's composer: what it shows and does comes from the chat's context. */
export function Composer(props: Props) {
  const theme = useTheme();
  const { open, focus, dialog, editing } = useChatState();
  const { drafts, messages, conversations, setFocus, endEdit } = useChatActions();
  const conversationId = open?.id ?? "";
  const focused = focus === "composer" && dialog === null;
  // A click focuses the composer; not while a dialog holds the keys.
  const onFocus = dialog === null ? () => setFocus("composer") : undefined;
  const label = editing ? "editing" : undefined;
  // The server's upload limit, said before anything is sent (asked once the composer is used).
  const limit = useUploadLimit(focused);
  const placeholder = editing
    ? "Enter saves · Esc cancels"
    : `Message ${open ? conversations.nameOf(open) : ""} · Enter sends · /attach URL or path${limit === undefined ? " adds a file" : `, up to ${formatBytes(limit)}`}`;
  const onSubmit = messages.submit;
  const draft = useDraft(drafts, conversationId);
  const attachments = useShownAttachments(drafts, conversationId);
  const edit = (change: (current: EditorState) => EditorState) =>
    drafts.update(conversationId, change);
  const inner = Math.max(1, props.width - 4);
  const openEditor = useExternalEditor(drafts);
  // Ctrl+X was pressed: a Ctrl+E next opens the editor (as in bash).
  const afterCtrlX = useRef(false);
  /** A key the editing model reads (a character, a move, a deletion), or text typed. */
  const type = (input: string, key: Key): boolean => {
    // Typed text and Enter that arrive in one read (fast typing, a slow SSH link) are
    // the text, then a send; only a bracketed paste makes a multi-line draft.
    if (input.length > 1 && input.endsWith("\r") && !input.slice(0, -1).includes("\r")) {
      const next = insert(draft, input.slice(0, -1));
      edit(() => next);
      if (next.value.trim()) onSubmit(next.value);
      return true;
    }
    if (!applyKey(draft, input, key, { width: inner }).handled) return false;
    edit((current) => applyKey(current, input, key, { width: inner }).state);
    return true;
  };
  const completion = props.completion;
  const listShown = focused && completion?.shown === true;
  const completionKeys = onBindings("completion", {
    "completion.take": () => completion && edit((current) => completion.take(current)),
    "completion.next": () => completion?.move(1),
    "completion.previous": () => completion?.move(-1),
    "completion.close": () => completion?.close(),
  });
  const keys = onBindings(
    "composer",
    {
      // With nothing to complete the key goes on: Tab is the next pane.
      "composer.complete": () => {
        if (!completion || completion.candidates.length === 0) return false;
        if (completion.candidates.length === 1) edit((current) => completion.take(current));
        else completion.reopen();
      },
      "composer.send": () => {
        if (draft.value.trim() || attachments.length > 0) onSubmit(draft.value);
      },
      // Ctrl+J, Alt+Enter, Shift+Enter: a new line in the draft.
      "composer.newLine": () => edit((current) => insert(current, "\n")),
      "composer.externalEditor": () => openEditor(conversationId),
      "composer.editorPrefix": () => {
        afterCtrlX.current = true;
      },
      "composer.back": () => {
        endEdit();
        setFocus("messages");
      },
      // In a draft, ↑ goes up a line.
      "composer.editLast": (input, key) => {
        if (draft.value !== "") return type(input, key);
        props.onEditLast();
      },
      "composer.move": type,
      "composer.lineEdge": type,
      "composer.nextLine": type,
      "composer.delete": type,
    },
    type,
  );
  useKeypress(
    (input: string, key: Key) => {
      const prefixed = afterCtrlX.current;
      afterCtrlX.current = false;
      // Ctrl+X Ctrl+E in one read (typed fast, a slow link) comes as one run of bytes.
      if (input === "\x18\x05" || (prefixed && key.ctrl && input === "e")) {
        openEditor(conversationId);
        return true;
      }
      if (listShown && completionKeys(input, key)) return true;
      return keys(input, key);
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

  const box = useRef<DOMElement>(null);
  useMouse(
    box,
    (event) => {
      if (event.kind === "press" && event.button === 0) onFocus?.();
    },
    { isActive: onFocus !== undefined && !focused },
  );

  const layout = layoutDraft(draft, inner);
  const rows = Math.min(COMPOSER_MAX_LINES, Math.max(1, layout.lines.length));
  const first = Math.max(0, Math.min(layout.cursorLine - rows + 1, layout.lines.length - rows));
  const shown = layout.lines.slice(first, first + rows);
  const empty = draft.value === "";
  const attachmentLines = attachmentRows(attachments);
  const count = lengthNote(draft.value);
  // Inside the border and the padding, below the attachments.
  const cursor =
    focused && props.origin
      ? {
          x: props.origin.x + 2 + (empty ? 0 : layout.cursorColumn),
          y:
            props.origin.y +
            (listShown ? 2 : 1) +
            attachmentLines.length +
            (empty ? 0 : layout.cursorLine - first),
        }
      : undefined;
  const drawnCursor = focused && !cursor;
  return (
    <Box flexDirection="column" width={props.width}>
      {listShown && completion ? (
        <CompletionRow completion={completion} width={props.width} />
      ) : null}
      <Panel
        width={props.width}
        height={rows + 2 + attachmentLines.length + (count ? 1 : 0)}
        focused={focused}
        paddingX={1}
        boxRef={box}
      >
        {cursor ? <TerminalCursor x={cursor.x} y={cursor.y} /> : null}
        {attachmentLines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows in a fixed order, redrawn whole
          <Text key={i} color={theme.accent} wrap="truncate-end">
            {screenText(line)}
          </Text>
        ))}
        {empty ? (
          <Text wrap="truncate-end">
            {drawnCursor ? <Text inverse> </Text> : focused ? " " : null}
            <Text color={theme.placeholder} dimColor={theme.faint}>
              {label ? `${label} · ` : ""}
              {placeholder}
            </Text>
          </Text>
        ) : (
          shown.map((line, i) => {
            const lineIndex = first + i;
            if (!drawnCursor || lineIndex !== layout.cursorLine) {
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
        {count ? (
          <Box justifyContent="flex-end">
            <Text color={count.over ? theme.error : theme.dim} wrap="truncate-start">
              {count.text}
            </Text>
          </Box>
        ) : null}
      </Panel>
    </Box>
  );
}

/**
 * The completion list: one row above the composer, its choices in order with the marked
 * one (what Tab or Enter takes) in inverse, then the list's keys.
 */
function CompletionRow({ completion, width }: { completion: Completion; width: number }) {
  const theme = useTheme();
  // The list's keys, all of them when the choices keep room (40 columns), else the first.
  // The table's hints for this line, as frame/help-table.ts makes the status bar's.
  const hints = activeBindings().flatMap((b) => (b.hint?.completion ? [b.hint.completion] : []));
  const all = ` · ${hints.join(" · ")}`;
  const keys = width - displayWidth(all) >= 40 ? all : ` · ${hints[0] ?? ""}`;
  let room = width - 1 - displayWidth(keys);
  const shown: { text: string; marked: boolean }[] = [];
  // The marked choice is always shown: the list starts far enough on to hold it.
  const from = Math.max(0, completion.index - 3);
  for (let i = from; i < completion.candidates.length; i++) {
    const text = screenText(completion.candidates[i]!.shown);
    const need = displayWidth(text) + 2;
    if (need > room && shown.length > 0) break;
    room -= need;
    shown.push({ text, marked: i === completion.index });
  }
  return (
    <Box height={1} width={width} paddingLeft={1}>
      <Text wrap="truncate-end">
        {shown.map(({ text, marked }, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one row, redrawn whole
          <Text key={i}>
            {i > 0 ? "  " : ""}
            <Text inverse={marked} bold={marked} color={marked ? theme.accent : undefined}>
              {text}
            </Text>
          </Text>
        ))}
        <Text color={theme.dim}>{keys}</Text>
      </Text>
    </Box>
  );
}
