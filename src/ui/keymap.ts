// Every key, in one table: the help overlay shows it whole and the status bar shows the
// focused pane's part. (Handlers live with their panes; this is what people read.)
export type KeyHelp = { keys: string; does: string };
export type KeySection = { where: string; keys: KeyHelp[] };

export const KEYMAP: KeySection[] = [
  {
    where: "anywhere",
    keys: [
      { keys: "Tab / Shift+Tab", does: "next / previous pane" },
      { keys: "Ctrl+C", does: "quit" },
      { keys: "Ctrl+L", does: "draw the whole screen again" },
      { keys: "Ctrl+R", does: "refresh now (retry at once when offline)" },
      { keys: "Ctrl+Z", does: "suspend (fg resumes)" },
    ],
  },
  {
    where: "not typing",
    keys: [
      { keys: "1 2 3 4", does: "filter: All, Pinned, Muted, Archived" },
      { keys: "/", does: "search conversations by name" },
      { keys: "n", does: "new conversation (contact id or group id)" },
      { keys: "?", does: "this help" },
      { keys: "q", does: "quit" },
    ],
  },
  {
    where: "conversations",
    keys: [
      { keys: "↑ ↓ / k j, PgUp PgDn, g G", does: "move" },
      { keys: "Enter", does: "open (focus goes to the composer)" },
      { keys: "p", does: "pin / unpin" },
      { keys: "m", does: "mute / unmute" },
      { keys: "a", does: "archive / restore" },
      { keys: "D", does: "delete (asks, y confirms)" },
    ],
  },
  {
    where: "messages",
    keys: [
      { keys: "↑ ↓ / k j", does: "select a message" },
      { keys: "PgUp PgDn, g G", does: "scroll, oldest loaded / newest" },
      { keys: "r", does: "react (again on the same one removes yours)" },
      { keys: "e, d", does: "edit / delete your own message (d asks)" },
      { keys: "P", does: "pin / unpin the message in the conversation" },
      { keys: "y", does: "copy the text (or attachment link) to the clipboard" },
      { keys: "Enter, d on a failed send", does: "retry it / drop it" },
      { keys: "Esc", does: "back to the conversations" },
    ],
  },
  {
    where: "prompts and dialogs",
    keys: [
      { keys: "/ search: Enter, Esc", does: "open the match / clear" },
      { keys: "n: ↑↓ Enter, Esc", does: "pick a contact seen so far, start / cancel" },
      { keys: "reactions: ←→ 1-9 Enter, Esc", does: "choose, toggle yours / close" },
      { keys: "y / any other key", does: "confirm / keep (delete questions)" },
      { keys: "help: ↑↓ PgUp PgDn", does: "scroll this help" },
    ],
  },
  {
    where: "composer",
    keys: [
      { keys: "Enter", does: "send (or save an edit)" },
      { keys: "Alt+Enter", does: "new line" },
      { keys: "Esc", does: "back to the messages (cancels an edit)" },
      { keys: "↑ on an empty draft", does: "edit your last message" },
      { keys: "← → Alt+← Alt+→", does: "move by character / word" },
      { keys: "Home End, Ctrl+A Ctrl+E", does: "start / end of line" },
      { keys: "Ctrl+W, Ctrl+U, Ctrl+K", does: "delete word / to start / to end" },
    ],
  },
];

export const HINTS = {
  sidebar:
    "↑↓ move · Enter open · p pin · m mute · a archive · D delete · / search · n new · ? help",
  messages:
    "↑↓ select · r react · e edit · d delete · P pin · y copy · g/G oldest/newest · Esc back · ? help",
  composer: "Enter send · Alt+Enter newline · ↑ edit last · Esc messages · Tab next pane",
  editing: "editing your message · Enter saves · Esc cancels",
} as const;
