// The composer's keys.
import type { Binding } from "../binding.ts";

/** Why the editing keys cannot be set in the config file. */
const EDITING = "the editing model (editor.ts) reads these keys itself";

export const COMPOSER_BINDINGS = [
  // The composer, when focused. Its editing keys are read by the editing model
  // (editor.ts), which tells apart what these entries sum up (a character or a word);
  // test/ui/composer-keys.test.ts feeds the model every key of these rows, and every key
  // the model acts on to this table, so neither can leave the other behind.
  {
    id: "composer.send",
    scope: "composer",
    keys: [{ key: "return", meta: false, shift: false }],
    does: "send (or save an edit)",
    label: "Enter",
    readme: true,
    hint: { composer: "Enter send", editing: "Enter saves" },
  },
  {
    id: "composer.complete",
    scope: "composer",
    // Over global.nextPane: with no @name or :emoji at the cursor, Tab still changes pane.
    keys: [{ key: "tab", shift: false }],
    does: "complete the @name or :emoji at the cursor (else: next pane)",
    label: "Tab",
    readme: {
      does: "complete the `@name` (the conversation's people first, then everyone known) or `:emoji` name at the cursor; the list above the composer shows the choices as you type",
    },
  },
  {
    id: "completion.take",
    scope: "completion",
    keys: [
      { key: "tab", shift: false },
      { key: "return", meta: false, shift: false },
    ],
    does: "take the marked name or emoji",
    label: "completion: Tab / Enter, ↑↓, Esc",
    hint: { completion: "Tab/Enter takes" },
  },
  {
    id: "completion.next",
    scope: "completion",
    keys: [{ key: "downArrow" }, { ctrl: true, input: "n" }],
    does: "mark the next choice",
    hint: { completion: "↑↓ choose" },
  },
  {
    id: "completion.previous",
    scope: "completion",
    keys: [{ key: "upArrow" }, { ctrl: true, input: "p" }, { key: "tab", shift: true }],
    does: "mark the previous choice",
  },
  {
    id: "completion.close",
    scope: "completion",
    keys: [{ key: "escape" }],
    does: "close the list (the text stays as typed)",
    hint: { completion: "Esc closes" },
  },
  {
    id: "composer.newLine",
    scope: "composer",
    // Ctrl+J is a line feed ("\n"), or CSI 106;5u under the kitty keyboard protocol, which
    // also tells Shift+Enter from Enter. Alt+Enter is taken by Windows Terminal and needs
    // Option-as-Meta on macOS; Ctrl+J works in every terminal.
    keys: [
      { input: "\n" },
      { ctrl: true, input: "j" },
      { key: "return", meta: true },
      { key: "return", shift: true },
    ],
    does: "new line",
    label: "Ctrl+J / Alt+Enter",
    readme: {
      does: "new line (also Shift+Enter, in terminals with the kitty keyboard protocol)",
    },
    hint: { composer: "Ctrl+J newline" },
  },
  {
    id: "composer.externalEditor",
    scope: "composer",
    keys: [{ ctrl: true, input: "g" }],
    does: "edit the draft in $VISUAL / $EDITOR (saved, it comes back unsent)",
    label: "Ctrl+G, Ctrl+X Ctrl+E",
    readme: {
      does: "edit the draft (or the message being edited) in `$VISUAL`, else `$EDITOR`, else `vi`; what you save comes back as the draft, unsent",
    },
    hint: { composer: "Ctrl+G editor" },
  },
  {
    id: "composer.editorPrefix",
    scope: "composer",
    // Ctrl+X, then Ctrl+E (as in bash): the same as Ctrl+G. Ctrl+E alone is the line's end.
    keys: [{ ctrl: true, input: "x" }],
    does: "with Ctrl+E next: edit the draft in $VISUAL / $EDITOR",
  },
  {
    id: "composer.back",
    scope: "composer",
    keys: [{ key: "escape" }],
    does: "back to the messages (cancels an edit)",
    label: "Esc",
    readme: true,
    hint: { composer: "Esc messages", editing: "Esc cancels" },
  },
  {
    id: "composer.editLast",
    scope: "composer",
    keys: [{ key: "upArrow" }],
    does: "edit your last message",
    label: "↑ on an empty draft",
    readme: true,
    hint: { composer: "↑ edit last" },
  },
  {
    id: "composer.move",
    scope: "composer",
    fixed: EDITING,
    // With Ctrl or Alt held, ← and → go by word (the editor tells them apart).
    keys: [
      { key: "leftArrow" },
      { key: "rightArrow" },
      { ctrl: true, input: "b" },
      { ctrl: true, input: "f" },
      { meta: true, input: "b" },
      { meta: true, input: "f" },
    ],
    does: "move by character / word",
    label: "← → Alt+← Alt+→",
    readme: {
      keys: "← → Alt+← Alt+→ Ctrl+B Ctrl+F Alt+B Alt+F Home End Ctrl+A Ctrl+E ↓",
      does: "move by character, word, line (↑ and ↓ between the lines of a long draft)",
    },
  },
  {
    id: "composer.lineEdge",
    scope: "composer",
    fixed: EDITING,
    keys: [{ key: "home" }, { key: "end" }, { ctrl: true, input: "a" }, { ctrl: true, input: "e" }],
    does: "start / end of line",
    label: "Home End, Ctrl+A Ctrl+E",
  },
  {
    id: "composer.nextLine",
    scope: "composer",
    fixed: EDITING,
    // ↑ is composer.editLast's on an empty draft; in a draft it goes up a line.
    keys: [{ key: "downArrow" }],
    does: "down a line in a draft of several (↑ goes up one)",
  },
  {
    id: "composer.delete",
    scope: "composer",
    fixed: EDITING,
    // With Ctrl or Alt held, Backspace and Delete take a word.
    keys: [
      { key: "backspace" },
      { key: "delete" },
      { ctrl: true, input: "h" },
      { ctrl: true, input: "d" },
      { ctrl: true, input: "w" },
      { ctrl: true, input: "u" },
      { ctrl: true, input: "k" },
      { meta: true, input: "d" },
    ],
    does: "delete word / to start / to end",
    label: "Ctrl+W, Ctrl+U, Ctrl+K",
    readme: {
      keys: "Backspace Delete Ctrl+H Ctrl+D Ctrl+W Alt+D Ctrl+U Ctrl+K",
      does: "delete character, word, to line start, to line end",
    },
  },
] as const satisfies readonly Binding[];
