// The screen: header, sidebar, the open conversation with its composer, status bar. This
// file makes the chat's state and intents and hands them to the panes through
// chat/chat-context.tsx; what a key does lives with its pane (keys/table/ names it, the
// pane's handler record beside it does it), server state in queries/.
import { Box, useApp, useWindowSize } from "ink";
import { useCallback, useState } from "react";
import type { Conversation } from "../api/schema.ts";
import {
  type ChatActions,
  ChatActionsContext,
  type ChatState,
  ChatStateContext,
  useChatActions,
  useChatState,
} from "./chat/chat-context.tsx";
import { useDialog } from "./chat/use-dialog.ts";
import { usePaneFocus } from "./chat/use-pane-focus.ts";
import { useDrafts } from "./composer/use-drafts.ts";
import { useConversationActions } from "./conversations/actions.ts";
import { Sidebar } from "./conversations/sidebar.tsx";
import { useConversationBrowser } from "./conversations/use-conversation-browser.ts";
import { useNotifications } from "./conversations/use-notifications.ts";
import { Blocker } from "./frame/blocker.tsx";
import { Header } from "./frame/header.tsx";
import { Help } from "./frame/help.tsx";
import { hintsFor } from "./frame/help-table.ts";
import { StatusBar } from "./frame/status-bar.tsx";
import { MIN_COLUMNS, MIN_ROWS, TooSmall } from "./frame/too-small.tsx";
import { useNotice } from "./frame/use-notice.ts";
import { useAnywhereKeys, useScreenKeys } from "./frame/use-screen-keys.ts";
import { PRIORITY, useBindings, useMouseOn } from "./keys/dispatcher.tsx";
import { useMessageActions } from "./messages/actions.ts";
import { ConversationView } from "./messages/conversation-view.tsx";
import { useOpenConversation } from "./queries/conversations.ts";
import { useRecoverAfterOutage } from "./queries/polling.ts";
import { useOutboxRunner } from "./queries/use-outbox-runner.ts";
import { useServerEvents } from "./queries/use-server-events.ts";
import { BODY_TOP, screenColumns } from "./screen/layout.ts";
import { createStore, useStore } from "./screen/observable.ts";
import { useMe, useSession } from "./screen/session-context.tsx";

export function App() {
  const { columns, rows } = useWindowSize();
  const { exit } = useApp();
  const quit = useCallback(() => exit(), [exit]);
  useAnywhereKeys(quit);
  useRecoverAfterOutage();
  useOutboxRunner();
  useServerEvents();

  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  // The chat stays mounted, hidden, while the terminal is too small: the open
  // conversation, the focus, a dialog and the selection are where they were when it grows.
  return (
    <>
      {tooSmall ? <TooSmallScreen columns={columns} rows={rows} onQuit={quit} /> : null}
      <Box display={tooSmall ? "none" : "flex"}>
        <ChatScreen
          columns={Math.max(columns, MIN_COLUMNS)}
          rows={Math.max(rows, MIN_ROWS)}
          onQuit={quit}
        />
      </Box>
    </>
  );
}

function TooSmallScreen(props: ScreenProps) {
  useBindings(
    "too small",
    { "tooSmall.quit": props.onQuit, "tooSmall.other": () => true },
    // Over the hidden chat's panes and dialogs: no key acts on what cannot be seen.
    { priority: PRIORITY.cover },
  );
  return <TooSmall columns={props.columns} rows={props.rows} />;
}

type ScreenProps = { columns: number; rows: number; onQuit: () => void };

function ChatScreen({ columns, rows, onQuit }: ScreenProps) {
  const me = useMe();
  const { status } = useSession();
  const browser = useConversationBrowser();
  const { dialog, dialogs } = useDialog(status);
  const drafts = useDrafts();
  const editing = useStore(drafts.editing);
  const { openId } = browser;
  const open =
    useOpenConversation(openId) ?? browser.list.conversations.find((c) => c.id === openId);
  const [sidebarHidden, setSidebarHidden] = useState(false);
  const [completionShown] = useState(() => createStore(false));
  // With nothing open, the list is all there is: it shows whatever `s` said.
  const sidebarShown = !sidebarHidden || openId === undefined;
  const { focus, setFocus, cycle } = usePaneFocus(openId !== undefined, sidebarShown);
  useNotifications(openId);

  const show = (c: Conversation) => {
    drafts.endEdit(openId);
    browser.open(c);
    setFocus("composer");
  };
  const conversations = useConversationActions({
    confirm: dialogs.confirm,
    show,
    started: (c) => {
      browser.showFilter("all");
      show(c);
    },
    forget: (id) => {
      if (openId === id) browser.open(undefined);
    },
  });
  const messages = useMessageActions({
    conversation: open,
    drafts,
    conversations,
    dialogs,
    toComposer: () => setFocus("composer"),
  });
  const endEdit = () => drafts.endEdit(openId);
  const state: ChatState = {
    focus,
    dialog,
    me,
    browser,
    open,
    editing,
    sidebarShown,
    completionShown,
  };
  const actions: ChatActions = {
    setFocus,
    cycleFocus: cycle,
    dialogs,
    drafts,
    conversations,
    messages,
    endEdit,
    openNextUnread: () => {
      const next = browser.nextUnread();
      if (!next) {
        status.note("No other conversation has unread messages.");
        return;
      }
      endEdit();
      browser.open(next);
      setFocus("messages");
    },
    toggleSidebar: (show) => {
      if (show || !sidebarShown) {
        if (!sidebarShown) status.clear();
        setSidebarHidden(false);
        return;
      }
      if (openId === undefined) {
        status.note("Open a conversation first: the list is all there is to show.");
        return;
      }
      setSidebarHidden(true);
      if (focus === "sidebar") setFocus("messages");
      status.note("The list is hidden: s shows it.");
    },
    quit: onQuit,
  };
  return (
    <ChatStateContext.Provider value={state}>
      <ChatActionsContext.Provider value={actions}>
        <ChatLayout columns={columns} rows={rows} />
      </ChatActionsContext.Provider>
    </ChatStateContext.Provider>
  );
}

function ChatLayout({ columns, rows }: { columns: number; rows: number }) {
  useScreenKeys();
  const { status, startView } = useSession();
  const connection = useStore(status.connection);
  const notice = useNotice(status);
  const mouseOn = useMouseOn();
  const { focus, dialog, editing, browser, sidebarShown, completionShown } = useChatState();
  const completing = useStore(completionShown);
  const { dialogs } = useChatActions();
  const { sidebarWidth, mainWidth, bodyHeight } = screenColumns(columns, rows, sidebarShown);
  const blocker =
    connection.state === "unauthorized" ||
    (connection.state === "offline" && browser.list.conversations.length === 0);
  const hints = hintsFor(dialog?.kind, focus, editing !== null, completing);
  if (startView) {
    // Said during render, before Ink writes the frame this render makes.
    startView.hints = hints;
    startView.shown =
      dialog === null &&
      focus === "sidebar" &&
      connection.state === "online" &&
      notice === null &&
      browser.openId === undefined &&
      browser.filter === "all" &&
      browser.search === null &&
      browser.conversations.length > 0 &&
      browser.selectedId === browser.conversations[0]?.id;
  }
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Header width={columns} />
      {dialog?.kind === "help" ? (
        <Help width={columns} height={bodyHeight} mouse={mouseOn} onClose={dialogs.close} />
      ) : (
        <Box flexDirection="row" height={bodyHeight}>
          {sidebarShown ? <Sidebar width={sidebarWidth} height={bodyHeight} /> : null}
          {blocker ? (
            <Blocker width={mainWidth} height={bodyHeight} />
          ) : (
            <ConversationView
              width={mainWidth}
              height={bodyHeight}
              left={sidebarWidth}
              top={BODY_TOP}
            />
          )}
        </Box>
      )}
      <StatusBar
        width={columns}
        hints={hints}
        notice={notice}
        connection={connection}
        prompt={dialog?.kind === "confirm" ? dialog.prompt : undefined}
      />
    </Box>
  );
}
