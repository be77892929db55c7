// The keys of the whole screen: those that work anywhere, between the panes, and when
// not typing; and the one key of the too-small notice.
import { type Binding, digits } from "../binding.ts";

export const SCREEN_BINDINGS = [
  // Tab in every pane (below the panes' own keys: a dialog may take Tab); the Ctrl keys
  // anywhere, even over a dialog.
  {
    id: "global.nextPane",
    scope: "panes",
    keys: [{ key: "tab", shift: false }],
    does: "next / previous pane",
    label: "Tab / Shift+Tab",
    readme: { does: "next / previous pane (conversations, messages, composer)" },
    hint: { composer: "Tab next pane" },
  },
  {
    id: "global.previousPane",
    scope: "panes",
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
    fixed: "its keys are the numbers it takes",
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
    id: "app.sidebar",
    scope: "not typing",
    keys: [{ input: "s" }],
    does: "hide / show the conversation list",
    label: "s",
    readme: {
      does: "hide / show the conversation list (the sidebar), for more room for the messages; a filter key (1-4) shows it again",
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

  // The notice over a terminal too small for the chat: q quits, no other key does anything.
  { id: "tooSmall.quit", scope: "too small", keys: [{ input: "q" }], does: "quit" },
  { id: "tooSmall.other", scope: "too small", keys: "other", does: "nothing (the chat is hidden)" },
] as const satisfies readonly Binding[];
