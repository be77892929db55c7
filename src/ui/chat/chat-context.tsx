// The chat screen's state and what can be done on it, for every component under it (as
// gemini-cli's UIStateContext and UIActionsContext): which pane has the keys, the one
// dialog, the open conversation, the list being browsed, the drafts, and the intents of
// conversations and messages. app.tsx fills both; panes read what they need here instead
// of through props handed down the tree.
import { createContext, useContext } from "react";
import type { Conversation } from "../../api/schema.ts";
import type { Drafts, Editing } from "../composer/drafts.ts";
import type { ConversationActions } from "../conversations/actions.ts";
import type { useConversationBrowser } from "../conversations/use-conversation-browser.ts";
import type { MessageActions } from "../messages/actions.ts";
import type { Store } from "../model/store.ts";
import type { Dialog, Dialogs } from "./use-dialog.ts";
import type { Focus } from "./use-pane-focus.ts";

export type ChatState = {
  focus: Focus;
  dialog: Dialog;
  me: string | undefined;
  browser: ReturnType<typeof useConversationBrowser>;
  /** The open conversation, as last fetched (or as the list has it). */
  open: Conversation | undefined;
  /** The message being edited in the composer, if any. */
  editing: Editing;
  /** Whether the conversation list is on screen (`s` hides it). */
  sidebarShown: boolean;
  /** Whether the composer's completion list shows (the view below sets it). */
  completionShown: Store<boolean>;
};

export type ChatActions = {
  setFocus(focus: Focus): void;
  /** The next pane (1) or the previous one (-1). */
  cycleFocus(step: 1 | -1): void;
  dialogs: Dialogs;
  drafts: Drafts;
  conversations: ConversationActions;
  messages: MessageActions;
  /** Ends an edit in progress in the open conversation's composer. */
  endEdit(): void;
  /** Hides the conversation list, or shows it again (`show`: only shows it). */
  toggleSidebar(show?: true): void;
  /** The next conversation with unread messages, open at its messages. */
  openNextUnread(): void;
  quit(): void;
};

export const ChatStateContext = createContext<ChatState | null>(null);
export const ChatActionsContext = createContext<ChatActions | null>(null);

export function useChatState(): ChatState {
  const state = useContext(ChatStateContext);
  if (!state) throw new Error("useChatState outside the chat screen");
  return state;
}

export function useChatActions(): ChatActions {
  const actions = useContext(ChatActionsContext);
  if (!actions) throw new Error("useChatActions outside the chat screen");
  return actions;
}
