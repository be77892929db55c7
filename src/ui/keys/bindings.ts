// Every key binding, once. Each entry is one binding: an id, the scope it applies in, the
// keys that trigger it, and what it does in words. Handlers ask `matchBinding(scope, input,
// key)` for the id and switch on it, so no handler names a letter; the help overlay
// (`HELP`), the status bar's hints (`HINTS`) and the README's key table (`readmeKeyTable`,
// checked by test/e2e/help.test.ts) are all read from this table.
//
// How the people-facing text comes out of it:
// - `label` makes the binding head a help row: its keys as the help shows them, then `does`.
//   The help sums several bindings up in one row (↑ ↓ / k j are four), so the others in
//   that row have no label; their `does` is for the reader of this file.
// - `readme` puts the row in the README's key table too, with more words where the README
//   has room for them (`true`: as the help says it).
// - `hint` gives the binding's short form for a status-bar line; `HINTS` says which
//   bindings each line shows, in its order.
// Where a binding lives is independent of where the help shows it: `SECTION` maps scopes to
// the help's headings, `SECTIONS` orders them.
import type { Key } from "ink";
import { COMPOSER_COMMANDS } from "../composer/commands.ts";

/** Where a binding applies: the pane or dialog whose handler asks for it. */
export type Scope =
  | "anywhere"
  | "not typing"
  | "conversations"
  | "messages"
  | "composer"
  | "search"
  | "message search"
  | "new conversation"
  | "attach"
  | "reactions"
  | "links"
  | "reaction name"
  | "reactors"
  | "confirm"
  | "help";

/** The key flags a matcher can ask for (Ink's `Key`, without the modifiers). */
export type KeyName =
  | "upArrow"
  | "downArrow"
  | "leftArrow"
  | "rightArrow"
  | "pageUp"
  | "pageDown"
  | "home"
  | "end"
  | "return"
  | "escape"
  | "tab"
  | "backspace"
  | "delete";

type Modifiers = { ctrl?: boolean; meta?: boolean; shift?: boolean };

/**
 * One way to press a binding: exactly this input, or this key flag, and the modifiers
 * given (true: held, false: not held). A modifier left out may be either for a key flag
 * (↑, Enter); for an input, Ctrl and Alt left out mean not held, so that Ctrl+D or Alt+D is
 * never taken for d (a vim user's Ctrl+D pages, it must not ask to delete).
 */
export type Matcher = ({ input: string; key?: never } | { key: KeyName; input?: never }) &
  Modifiers;

/** Where the status bar shows a hint: the focused pane, an edit, an open dialog. */
export type HintLine = "sidebar" | "messages" | "composer" | "editing" | "react" | "links" | "help";

export type Binding = {
  readonly id: string;
  readonly scope: Scope;
  /** Any of these; "other" is whatever key no other binding of the scope takes. */
  readonly keys: readonly Matcher[] | "other";
  readonly does: string;
  readonly label?: string;
  readonly readme?: true | { readonly keys?: string; readonly does?: string };
  readonly hint?: Partial<Record<HintLine, string>>;
};

const digits = (from: number, to: number): Matcher[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ input: String(from + i) }));

export const BINDINGS = [
  // Anywhere: Tab in every pane, the Ctrl keys even over a dialog.
  {
    id: "global.nextPane",
    scope: "anywhere",
    keys: [{ key: "tab", shift: false }],
    does: "next / previous pane",
    label: "Tab / Shift+Tab",
    readme: { does: "next / previous pane (conversations, messages, composer)" },
    hint: { composer: "Tab next pane" },
  },
  {
    id: "global.previousPane",
    scope: "anywhere",
    keys: [{ key: "tab", shift: true }],
    does: "previous pane",
  },
  {
    id: "global.quit",
    scope: "anywhere",
    keys: [{ ctrl: true, input: "c" }],
    does: "quit",
    label: "Ctrl+C",
    readme: true,
  },
  {
    id: "global.redraw",
    scope: "anywhere",
    keys: [{ ctrl: true, input: "l" }],
    does: "draw the whole screen again",
    label: "Ctrl+L",
    readme: { does: "draw the whole screen again (after something else wrote on it)" },
  },
  {
    id: "global.refresh",
    scope: "anywhere",
    keys: [{ ctrl: true, input: "r" }],
    does: "refresh now (retry at once when offline)",
    label: "Ctrl+R",
    readme: {
      does: "refresh now; while the server is down, try again at once instead of waiting",
    },
  },
  {
    id: "global.suspend",
    scope: "anywhere",
    keys: [{ ctrl: true, input: "z" }],
    does: "suspend (fg resumes)",
    label: "Ctrl+Z",
    readme: true,
  },

  // When not typing: the sidebar and the messages pane (the composer takes these as text).
  {
    id: "app.filter",
    scope: "not typing",
    keys: digits(1, 4),
    does: "filter: All, Pinned, Muted, Archived",
    label: "1 2 3 4",
    readme: { does: "filter: All, Pinned, Muted, Archived (All leaves archived out)" },
  },
  {
    id: "app.newConversation",
    scope: "not typing",
    keys: [{ input: "n" }],
    does: "new conversation (a person's name, or a group id)",
    label: "n",
    readme: {
      does: "new conversation: type a person's user name, completed from the people the server knows and those seen in messages (↑↓ or Tab pick), or a group of yours by name (`team`) or id (`grp_team`)",
    },
    hint: { sidebar: "n new" },
  },
  {
    id: "app.nextUnread",
    scope: "not typing",
    keys: [{ input: "u" }],
    does: "next conversation with unread messages",
    label: "u",
    readme: {
      does: "open the next conversation with unread messages (after the open one, else from the selected one, in the list's order; muted ones skipped), with the messages pane focused so `u` again goes on",
    },
  },
  {
    id: "app.help",
    scope: "not typing",
    keys: [{ input: "?" }],
    does: "this help",
    label: "?",
    readme: { does: "help" },
    hint: { sidebar: "? help", messages: "? help" },
  },
  {
    id: "app.quit",
    scope: "not typing",
    keys: [{ input: "q" }],
    does: "quit",
    label: "q",
    readme: true,
  },

  // The conversation list (the sidebar), when focused and not searching.
  {
    id: "conversation.up",
    scope: "conversations",
    keys: [{ key: "upArrow" }, { input: "k" }],
    does: "move",
    label: "↑ ↓ / k j, PgUp PgDn, g G",
    readme: true,
    hint: { sidebar: "↑↓ move" },
  },
  {
    id: "conversation.down",
    scope: "conversations",
    keys: [{ key: "downArrow" }, { input: "j" }],
    does: "move down",
  },
  {
    id: "conversation.pageUp",
    scope: "conversations",
    keys: [{ key: "pageUp" }],
    does: "move a screen up",
  },
  {
    id: "conversation.pageDown",
    scope: "conversations",
    keys: [{ key: "pageDown" }],
    does: "move a screen down",
  },
  {
    id: "conversation.halfDown",
    scope: "conversations",
    keys: [{ ctrl: true, input: "d" }],
    does: "move half a screen down / up",
    label: "Ctrl+D / Ctrl+U",
    readme: true,
  },
  {
    id: "conversation.halfUp",
    scope: "conversations",
    keys: [{ ctrl: true, input: "u" }],
    does: "move half a screen up",
  },
  {
    id: "conversation.first",
    scope: "conversations",
    keys: [{ key: "home" }, { input: "g" }],
    does: "move to the first",
  },
  {
    id: "conversation.last",
    scope: "conversations",
    keys: [{ key: "end" }, { input: "G" }],
    does: "move to the last loaded",
  },
  {
    id: "conversation.open",
    scope: "conversations",
    keys: [{ key: "return" }],
    does: "open (focus goes to the composer)",
    label: "Enter",
    readme: true,
    hint: { sidebar: "Enter open" },
  },
  {
    id: "conversation.search",
    scope: "conversations",
    keys: [{ input: "/" }],
    does: "search conversations by name",
    label: "/",
    readme: true,
    hint: { sidebar: "/ search" },
  },
  {
    id: "conversation.pin",
    scope: "conversations",
    keys: [{ input: "p" }],
    does: "pin / unpin",
    label: "p",
    readme: { keys: "p, m, a", does: "pin / unpin, mute / unmute, archive / restore" },
    hint: { sidebar: "p pin" },
  },
  {
    id: "conversation.mute",
    scope: "conversations",
    keys: [{ input: "m" }],
    does: "mute / unmute",
    label: "m",
    hint: { sidebar: "m mute" },
  },
  {
    id: "conversation.archive",
    scope: "conversations",
    keys: [{ input: "a" }],
    does: "archive / restore",
    label: "a",
    hint: { sidebar: "a archive" },
  },
  {
    id: "conversation.delete",
    scope: "conversations",
    keys: [{ input: "D" }],
    does: "delete (asks, y confirms)",
    label: "D",
    readme: { does: "delete the conversation (asks, `y` confirms)" },
    hint: { sidebar: "D delete" },
  },

  // The open conversation's messages, when focused.
  {
    id: "message.up",
    scope: "messages",
    keys: [{ key: "upArrow" }, { input: "k" }],
    does: "select a message (a long one: line by line)",
    label: "↑ ↓ / k j",
    readme: {
      keys: "↑ ↓ / k j, PgUp PgDn, g G",
      does: "select (through a message taller than the pane line by line), scroll by a pane, oldest loaded / newest",
    },
    hint: { messages: "↑↓ select" },
  },
  {
    id: "message.down",
    scope: "messages",
    keys: [{ key: "downArrow" }, { input: "j" }],
    does: "select the next message",
  },
  {
    id: "message.pageUp",
    scope: "messages",
    keys: [{ key: "pageUp" }],
    does: "scroll by a pane, oldest loaded / newest",
    label: "PgUp PgDn, g G",
  },
  {
    id: "message.pageDown",
    scope: "messages",
    keys: [{ key: "pageDown" }],
    does: "scroll a screen down",
  },
  {
    id: "message.halfDown",
    scope: "messages",
    keys: [{ ctrl: true, input: "d" }],
    does: "scroll half a screen down / up",
    label: "Ctrl+D / Ctrl+U",
    readme: true,
  },
  {
    id: "message.halfUp",
    scope: "messages",
    keys: [{ ctrl: true, input: "u" }],
    does: "scroll half a screen up",
  },
  {
    id: "message.react",
    scope: "messages",
    keys: [{ input: "r" }],
    does: "react (again on the same one removes yours)",
    label: "r",
    readme: {
      does: "react: a row of common reactions, or any by name (`:wave`, completed); again on the same one removes yours",
    },
    hint: { messages: "r react" },
  },
  {
    id: "message.reactors",
    scope: "messages",
    keys: [{ input: "w" }],
    does: "who reacted, with what",
    label: "w",
    readme: { does: "who reacted, with what: the user names of each reaction (any key closes)" },
  },
  {
    id: "message.edit",
    scope: "messages",
    keys: [{ input: "e" }],
    does: "edit / delete your own message (d asks)",
    label: "e, d",
    readme: { does: "edit / delete your own message (`d` asks, `y` confirms)" },
    hint: { messages: "e edit" },
  },
  {
    id: "message.delete",
    scope: "messages",
    keys: [{ input: "d" }],
    does: "delete your own message (asks), or drop a failed send",
    hint: { messages: "d delete" },
  },
  {
    id: "message.pin",
    scope: "messages",
    keys: [{ input: "P" }],
    does: "pin / unpin the message in the conversation",
    label: "P",
    readme: { does: "pin / unpin the selected message in the conversation" },
    hint: { messages: "P pin" },
  },
  {
    id: "message.copy",
    scope: "messages",
    keys: [{ input: "y" }],
    does: "copy the text (or attachment link) to the clipboard",
    label: "y",
    readme: { does: "copy the message (or its attachment's link) to the clipboard (OSC 52)" },
    hint: { messages: "y copy" },
  },
  {
    id: "message.open",
    scope: "messages",
    keys: [{ input: "o" }],
    does: "open the link or attachment (over SSH: copy it)",
    label: "o",
    readme: {
      does: "open the message's link or attachment (a chooser when there are several) in your browser or viewer; over SSH it copies it instead",
    },
    hint: { messages: "o open" },
  },
  {
    id: "message.copyLink",
    scope: "messages",
    keys: [{ input: "Y" }],
    does: "copy the link or attachment's address",
    label: "Y",
    readme: { does: "copy the message's link or attachment's address (a chooser when several)" },
  },
  {
    id: "message.attach",
    scope: "messages",
    keys: [{ input: "A" }],
    does: "add an attachment by URL to your message (asks for it)",
    label: "A",
    hint: { messages: "A attach" },
    readme: {
      does: "add an attachment to your own message: asks for its URL (and a file name)",
    },
  },
  {
    id: "message.first",
    scope: "messages",
    keys: [{ key: "home" }, { input: "g" }],
    does: "select the oldest loaded message",
    hint: { messages: "g/G ends" },
  },
  {
    id: "message.last",
    scope: "messages",
    keys: [{ key: "end" }, { input: "G" }],
    does: "select the newest message",
  },
  {
    id: "message.retry",
    scope: "messages",
    keys: [{ key: "return" }],
    does: "retry it / drop it",
    label: "Enter, d on a failed send",
    readme: {
      keys: "Enter / d on a failed send",
      does: "retry it (same idempotency key, never a duplicate) / drop it",
    },
  },
  {
    id: "message.search",
    scope: "messages",
    keys: [{ input: "/" }],
    does: "search this conversation's messages (its whole history)",
    label: "/",
    readme: {
      does: "search the open conversation's messages, through its whole history (older pages are fetched as needed; Esc stops); jumps to the newest match",
    },
    hint: { messages: "/ search" },
  },
  {
    id: "message.nextMatch",
    scope: "messages",
    keys: [{ input: "n" }],
    does: "next (older) / previous (newer) match, while searching",
    label: "n N",
    readme: {
      does: "next (older) / previous (newer) match while a search is on (else `n` is a new conversation); Esc ends the search",
    },
  },
  {
    id: "message.previousMatch",
    scope: "messages",
    keys: [{ input: "N" }],
    does: "previous (newer) match",
  },
  {
    id: "message.back",
    scope: "messages",
    keys: [{ key: "escape" }],
    does: "back to the conversations",
    label: "Esc",
    hint: { messages: "Esc back" },
  },

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
    keys: [{ key: "home" }, { key: "end" }, { ctrl: true, input: "a" }, { ctrl: true, input: "e" }],
    does: "start / end of line",
    label: "Home End, Ctrl+A Ctrl+E",
  },
  {
    id: "composer.nextLine",
    scope: "composer",
    // ↑ is composer.editLast's on an empty draft; in a draft it goes up a line.
    keys: [{ key: "downArrow" }],
    does: "down a line in a draft of several (↑ goes up one)",
  },
  {
    id: "composer.delete",
    scope: "composer",
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

  // Prompts and dialogs: each owns the keys while open.
  {
    id: "search.open",
    scope: "search",
    keys: [{ key: "return" }],
    does: "open the match / clear",
    label: "/ search: Enter, Esc",
  },
  { id: "search.clear", scope: "search", keys: [{ key: "escape" }], does: "clear the search" },
  { id: "search.up", scope: "search", keys: [{ key: "upArrow" }], does: "move up" },
  { id: "search.down", scope: "search", keys: [{ key: "downArrow" }], does: "move down" },
  { id: "search.type", scope: "search", keys: "other", does: "type in the search" },
  {
    id: "messageSearch.run",
    scope: "message search",
    keys: [{ key: "return" }],
    does: "search the conversation / cancel",
    label: "messages /: Enter, Esc",
  },
  {
    id: "messageSearch.cancel",
    scope: "message search",
    keys: [{ key: "escape" }],
    does: "cancel the search",
  },
  { id: "messageSearch.type", scope: "message search", keys: "other", does: "type the text" },
  {
    id: "newConversation.down",
    scope: "new conversation",
    keys: [{ key: "downArrow" }, { key: "tab", shift: false }],
    does: "pick a person, start the conversation / cancel",
    label: "n: ↑↓ Tab, Enter, Esc",
  },
  {
    id: "newConversation.up",
    scope: "new conversation",
    keys: [{ key: "upArrow" }, { key: "tab", shift: true }],
    does: "pick the person above (or none)",
  },
  {
    id: "newConversation.start",
    scope: "new conversation",
    keys: [{ key: "return" }],
    does: "start the conversation",
  },
  {
    id: "newConversation.cancel",
    scope: "new conversation",
    keys: [{ key: "escape" }],
    does: "cancel",
  },
  {
    id: "newConversation.type",
    scope: "new conversation",
    keys: "other",
    does: "type a name (or a group id)",
  },
  {
    id: "attach.add",
    scope: "attach",
    keys: [{ key: "return" }],
    does: "add the attachment / cancel",
    label: "A: URL [file name], Enter, Esc",
  },
  { id: "attach.cancel", scope: "attach", keys: [{ key: "escape" }], does: "cancel" },
  { id: "attach.type", scope: "attach", keys: "other", does: "type the URL and file name" },
  {
    id: "reaction.previous",
    scope: "reactions",
    keys: [{ key: "leftArrow" }, { input: "h" }],
    does: "choose, toggle yours / close",
    label: "reactions: ←→ 1-9 Enter, Esc",
    hint: { react: "←→ choose" },
  },
  {
    id: "reaction.next",
    scope: "reactions",
    keys: [{ key: "rightArrow" }, { input: "l" }, { key: "tab" }],
    does: "choose the next reaction",
  },
  {
    id: "reaction.toggle",
    scope: "reactions",
    keys: [{ key: "return" }],
    does: "toggle your reaction",
    hint: { react: "Enter or 1-9 toggles your reaction" },
  },
  {
    id: "reaction.toggleNumber",
    scope: "reactions",
    keys: digits(1, 9),
    does: "toggle your reaction with that number",
  },
  {
    id: "reaction.close",
    scope: "reactions",
    keys: [{ key: "escape" }, { input: "q" }],
    does: "close the picker",
    hint: { react: "Esc closes" },
  },
  {
    id: "link.previous",
    scope: "links",
    keys: [{ key: "leftArrow" }, { input: "h" }],
    does: "choose, open or copy it / close",
    label: "links: ←→ 1-9 Enter, Esc",
    hint: { links: "←→ choose" },
  },
  {
    id: "link.next",
    scope: "links",
    keys: [{ key: "rightArrow" }, { input: "l" }, { key: "tab" }],
    does: "choose the next link",
  },
  {
    id: "link.pick",
    scope: "links",
    keys: [{ key: "return" }],
    does: "open or copy the chosen link",
    hint: { links: "Enter or 1-9 takes it" },
  },
  {
    id: "link.pickNumber",
    scope: "links",
    keys: digits(1, 9),
    does: "open or copy the link with that number",
  },
  {
    id: "link.close",
    scope: "links",
    keys: [{ key: "escape" }, { input: "q" }],
    does: "close the chooser",
    hint: { links: "Esc closes" },
  },
  {
    id: "reaction.name",
    scope: "reactions",
    keys: [{ input: ":" }],
    does: "type a short code (:wave); Tab ↑↓ choose a completion",
    label: "reactions: :name, Tab",
    hint: { react: ": by name" },
  },
  {
    id: "reactionName.next",
    scope: "reaction name",
    keys: [{ key: "tab", shift: false }, { key: "downArrow" }, { key: "rightArrow" }],
    does: "the next completion",
  },
  {
    id: "reactionName.previous",
    scope: "reaction name",
    keys: [{ key: "tab", shift: true }, { key: "upArrow" }, { key: "leftArrow" }],
    does: "the previous completion",
  },
  {
    id: "reactionName.pick",
    scope: "reaction name",
    keys: [{ key: "return" }],
    does: "toggle your reaction with the chosen name",
  },
  {
    id: "reactionName.erase",
    scope: "reaction name",
    keys: [{ key: "backspace" }, { key: "delete" }],
    does: "erase a character (an empty name goes back to the row)",
  },
  {
    id: "reactionName.back",
    scope: "reaction name",
    keys: [{ key: "escape" }],
    does: "back to the row of common reactions",
  },
  { id: "reactionName.type", scope: "reaction name", keys: "other", does: "type the name" },
  { id: "reactors.close", scope: "reactors", keys: "other", does: "close the list" },
  {
    id: "confirm.yes",
    scope: "confirm",
    keys: [{ input: "y" }, { input: "Y" }],
    does: "confirm / keep (delete questions)",
    label: "y / any other key",
  },
  { id: "confirm.keep", scope: "confirm", keys: "other", does: "keep it" },
  {
    id: "help.up",
    scope: "help",
    keys: [{ key: "upArrow" }, { input: "k" }],
    does: "scroll this help",
    label: "help: ↑↓ PgUp PgDn",
    hint: { help: "↑↓ PgUp PgDn scroll" },
  },
  { id: "help.down", scope: "help", keys: [{ key: "downArrow" }, { input: "j" }], does: "down" },
  { id: "help.pageUp", scope: "help", keys: [{ key: "pageUp" }], does: "a screen up" },
  {
    id: "help.pageDown",
    scope: "help",
    keys: [{ key: "pageDown" }, { input: " " }],
    does: "a screen down",
  },
  {
    id: "help.close",
    scope: "help",
    keys: "other",
    does: "close the help",
    hint: { help: "any other key closes the help" },
  },
] as const satisfies readonly Binding[];

type Entry = (typeof BINDINGS)[number];
export type BindingId = Entry["id"];
/** The ids of one scope's bindings: a handler's `switch` covers exactly these. */
export type ScopeBinding<S extends Scope> = IdIn<Entry, S>;
type IdIn<E, S> = E extends { scope: S; id: infer Id } ? Id : never;

/** The modifiers a matcher asks for, with an input's unnamed Ctrl and Alt as not held. */
function modifiersOf(m: Matcher): Modifiers {
  if (m.input === undefined) return m;
  return { ...m, ctrl: m.ctrl ?? false, meta: m.meta ?? false };
}

/** `m` as `matches` reads it: with modifiersOf's defaults filled in (once, at load). */
export const normalised = (m: Matcher): Matcher => ({ ...m, ...modifiersOf(m) });

function matches(m: Matcher, input: string, key: Key): boolean {
  if (m.input !== undefined && input !== m.input) return false;
  if (m.key !== undefined && !key[m.key]) return false;
  if (m.ctrl !== undefined && key.ctrl !== m.ctrl) return false;
  if (m.meta !== undefined && key.meta !== m.meta) return false;
  if (m.shift !== undefined && key.shift !== m.shift) return false;
  return true;
}

const byScope = new Map<Scope, { id: string; keys: readonly Matcher[] | "other" }[]>();
for (const { scope, id, keys } of BINDINGS as readonly Binding[]) {
  const entry = { id, keys: keys === "other" ? keys : keys.map(normalised) };
  byScope.set(scope, [...(byScope.get(scope) ?? []), entry]);
}

/**
 * The binding of `scope` that this key press triggers: the first whose keys match, else
 * the scope's "other" binding if it has one, else undefined.
 */
export function matchBinding<S extends Scope>(
  scope: S,
  input: string,
  key: Key,
): ScopeBinding<S> | undefined {
  let found: { id: string } | undefined;
  for (const binding of byScope.get(scope) ?? []) {
    if (binding.keys === "other") found ??= binding;
    else if (binding.keys.some((m) => matches(m, input, key))) {
      found = binding;
      break;
    }
  }
  // The table's types say which ids a scope has; `byScope` holds the same entries.
  return found?.id as ScopeBinding<S> | undefined;
}

/** The help's headings, in order, and which scopes each gathers. */
export const SECTIONS = [
  "anywhere",
  "not typing",
  "conversations",
  "messages",
  "prompts and dialogs",
  "composer",
  "composer commands",
] as const;
export type Section = (typeof SECTIONS)[number];

export const SECTION: Record<Scope, Section> = {
  anywhere: "anywhere",
  "not typing": "not typing",
  conversations: "conversations",
  messages: "messages",
  composer: "composer",
  search: "prompts and dialogs",
  "message search": "prompts and dialogs",
  "new conversation": "prompts and dialogs",
  attach: "prompts and dialogs",
  reactions: "prompts and dialogs",
  links: "prompts and dialogs",
  "reaction name": "prompts and dialogs",
  reactors: "prompts and dialogs",
  confirm: "prompts and dialogs",
  help: "prompts and dialogs",
};

export type HelpRow = { keys: string; does: string };
export type HelpSection = { where: Section; rows: HelpRow[] };

function sections(row: (binding: Binding) => HelpRow | undefined): HelpSection[] {
  return SECTIONS.map((where) => ({
    where,
    rows: (BINDINGS as readonly Binding[]).flatMap((b) => {
      const shown = SECTION[b.scope] === where ? row(b) : undefined;
      return shown ? [shown] : [];
    }),
  })).filter((section) => section.rows.length > 0);
}

/** The help overlay's table: every labelled binding, by section; then the composer's commands. */
export const HELP: HelpSection[] = [
  ...sections((b) => (b.label === undefined ? undefined : { keys: b.label, does: b.does })),
  {
    where: "composer commands",
    rows: COMPOSER_COMMANDS.map((c) => ({ keys: c.usage, does: c.does })),
  },
];

/** The mouse, for the help's last section (no key: the dispatcher routes it by position). */
export const MOUSE_HELP: HelpRow[] = [
  { keys: "wheel", does: "scroll the pane under the pointer" },
  { keys: "click", does: "select a conversation or message, focus its pane" },
  { keys: "Shift+drag", does: "select text, in most terminals (mouse: false turns it off)" },
];

/** The README's "Keys" table, as markdown (test/e2e/help.test.ts holds the README to it). */
export function readmeKeyTable(): string {
  const rows = sections((b) => {
    if (b.readme === undefined || b.label === undefined) return undefined;
    const more = b.readme === true ? {} : b.readme;
    return { keys: more.keys ?? b.label, does: more.does ?? b.does };
  });
  const lines = ["| where | key | does |", "|---|---|---|"];
  for (const section of rows) {
    for (const row of section.rows) lines.push(`| ${section.where} | ${row.keys} | ${row.does} |`);
  }
  return `${lines.join("\n")}\n`;
}

function hintLine(line: HintLine, ids: readonly BindingId[], lead?: string): string {
  const parts = ids.map((id) => {
    const text = (BINDINGS as readonly Binding[]).find((b) => b.id === id)?.hint?.[line];
    if (text === undefined) throw new Error(`${id} has no hint for the ${line} line`);
    return text;
  });
  return (lead ? [lead, ...parts] : parts).join(" · ");
}

/** The status bar's line of keys for the focused pane, an edit in progress, or a dialog. */
export const HINTS: Record<HintLine, string> = {
  sidebar: hintLine("sidebar", [
    "conversation.up",
    "conversation.open",
    "conversation.pin",
    "conversation.mute",
    "conversation.archive",
    "conversation.delete",
    "conversation.search",
    "app.newConversation",
    "app.help",
  ]),
  messages: hintLine("messages", [
    "message.up",
    "message.react",
    "message.edit",
    "message.delete",
    "message.pin",
    "message.copy",
    "message.open",
    "message.attach",
    "message.search",
    "message.first",
    "message.back",
    // Not "? help": the header says it, and the line must fit 120 columns.
  ]),
  composer: hintLine("composer", [
    "composer.send",
    "composer.newLine",
    "composer.editLast",
    "composer.externalEditor",
    "composer.back",
    "global.nextPane",
  ]),
  editing: hintLine("editing", ["composer.send", "composer.back"], "editing your message"),
  react: hintLine("react", [
    "reaction.previous",
    "reaction.toggle",
    "reaction.name",
    "reaction.close",
  ]),
  links: hintLine("links", ["link.previous", "link.pick", "link.close"]),
  help: hintLine("help", ["help.up", "help.close"]),
};

/** The status bar's hint line: the open dialog's keys, else the focused pane's. */
export function hintsFor(
  dialog: string | undefined,
  focus: "sidebar" | "messages" | "composer",
  editing: boolean,
): string {
  if (dialog === "react" || dialog === "links" || dialog === "help") return HINTS[dialog];
  return editing && focus === "composer" ? HINTS.editing : HINTS[focus];
}
