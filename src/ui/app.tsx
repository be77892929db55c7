// The screen: header, sidebar, the open conversation with its composer, status bar. This
// file wires state to components; what each key does lives in ui/actions/ (intents) and
// the panes, server state in ui/queries/, sizes in layout.ts.
import { Box, useApp, useWindowSize } from "ink";
import { useCallback } from "react";
import type { Conversation } from "../api/schema.ts";
import { composerHeight } from "./composer/composer.tsx";
import { useComposerRows, useDrafts } from "./composer/use-drafts.ts";
import { useConversationActions } from "./conversations/actions.ts";
import { Sidebar } from "./conversations/sidebar.tsx";
import { useConversationBrowser } from "./conversations/use-conversation-browser.ts";
import { useNotifications } from "./conversations/use-notifications.ts";
import { hintsFor, matchBinding } from "./keys/bindings.ts";
import { PRIORITY, useKeypress, useMouseOn } from "./keys/dispatcher.tsx";
import { useAnywhereKeys } from "./keys/use-anywhere-keys.ts";
import { useScreenKeys } from "./keys/use-screen-keys.ts";
import { useMessageActions } from "./messages/actions.ts";
import { ConversationView } from "./messages/conversation-view.tsx";
import { reactorsRows } from "./messages/reactors.tsx";
import { useConversationItems } from "./messages/use-conversation-items.ts";
import { useDialog } from "./messages/use-dialog.ts";
import { useOpenConversation } from "./queries/conversations.ts";
import { usePinnedMessage } from "./queries/history.ts";
import { useRecoverAfterOutage } from "./queries/polling.ts";
import { useOutboxRunner } from "./queries/use-outbox-runner.ts";
import { Blocker } from "./screen/blocker.tsx";
import { Header } from "./screen/header.tsx";
import { Help } from "./screen/help.tsx";
import { messagePaneHeight, screenColumns } from "./screen/layout.ts";
import { useStore } from "./screen/observable.ts";
import { useMe, useSession } from "./screen/session-context.tsx";
import { StatusBar } from "./screen/status-bar.tsx";
import { describeError } from "./screen/status-line.ts";
import { MIN_COLUMNS, MIN_ROWS, TooSmall } from "./screen/too-small.tsx";
import { useNotice } from "./screen/use-notice.ts";
import { useFocus } from "./screen/use-pane-focus.ts";

export function App() {
  const { columns, rows } = useWindowSize();
  const { exit } = useApp();
  const quit = useCallback(() => exit(), [exit]);
  useAnywhereKeys(quit);
  useRecoverAfterOutage();
  useOutboxRunner();

  if (columns < MIN_COLUMNS || rows < MIN_ROWS)
    return <TooSmallScreen columns={columns} rows={rows} onQuit={quit} />;
  return <ChatScreen columns={columns} rows={rows} onQuit={quit} />;
}

function TooSmallScreen(props: ScreenProps) {
  useKeypress(
    (input, key) => {
      if (matchBinding("not typing", input, key) === "app.quit") props.onQuit();
      return true;
    },
    { priority: PRIORITY.global },
  );
  return <TooSmall columns={props.columns} rows={props.rows} />;
}

type ScreenProps = { columns: number; rows: number; onQuit: () => void };

function ChatScreen({ columns, rows, onQuit }: ScreenProps) {
  const me = useMe();
  const { status } = useSession();
  const connection = useStore(status.connection);
  const notice = useNotice(status);
  const browser = useConversationBrowser();
  const { list, selectedId } = browser;
  const { dialog, ...dialogs } = useDialog(status);
  const drafts = useDrafts();
  const editing = useStore(drafts.editing);
  const mouseOn = useMouseOn();

  const { openId } = browser;
  const open = useOpenConversation(openId) ?? list.conversations.find((c) => c.id === openId);
  const { focus, setFocus, cycle } = useFocus(openId !== undefined);
  const { history, items } = useConversationItems(openId);
  const pinned = usePinnedMessage(open?.pinned_message_id, history.messages);
  useNotifications(openId);

  const show = (c: Conversation) => {
    drafts.endEdit(openId);
    browser.open(c);
    setFocus("composer");
  };
  const started = (c: Conversation) => {
    browser.showFilter("all");
    show(c);
  };
  const forget = (id: string) => {
    if (openId === id) browser.open(undefined);
  };
  const conversations = useConversationActions({ confirm: dialogs.confirm, show, started, forget });
  const messages = useMessageActions({
    conversation: open,
    drafts,
    conversations,
    confirm: dialogs.confirm,
    pickReaction: (message) => dialogs.show({ kind: "react", message }),
    chooseLink: (links, verb) => dialogs.show({ kind: "links", links, verb }),
    askAttachment: (message) => dialogs.show({ kind: "attach", message }),
    showReactors: (message) => dialogs.show({ kind: "reactors", message }),
    toComposer: () => setFocus("composer"),
  });

  const endEdit = () => drafts.endEdit(openId);
  useScreenKeys({ focus, cycle, setFocus, browser, dialogs, onQuit, endEdit });

  const { sidebarWidth, mainWidth, bodyHeight } = screenColumns(columns, rows);
  const draftRows = useComposerRows(drafts, openId, mainWidth, composerHeight);
  const paneHeight = messagePaneHeight(bodyHeight, {
    composer: dialog?.kind === "new" || dialog?.kind === "attach" || !open ? 0 : draftRows,
    picker: dialog?.kind === "react" || dialog?.kind === "links",
    reactors: dialog?.kind === "reactors" ? reactorsRows(dialog.message) : 0,
    newConversation: dialog?.kind === "new",
    attachPrompt: dialog?.kind === "attach",
  });
  const blocker =
    connection.state === "unauthorized" ||
    (connection.state === "offline" && list.conversations.length === 0);

  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Header width={columns} />
      {dialog?.kind === "help" ? (
        <Help width={columns} height={bodyHeight} mouse={mouseOn} onClose={dialogs.close} />
      ) : (
        <Box flexDirection="row" height={bodyHeight}>
          <Sidebar
            width={sidebarWidth}
            height={bodyHeight}
            focused={focus === "sidebar" && dialog === null}
            filter={browser.filter}
            conversations={browser.conversations}
            selectedId={selectedId}
            openId={openId}
            me={me}
            loading={list.isLoading}
            error={list.error ? describeError(list.error) : undefined}
            hasMore={list.hasMore}
            loadMore={list.loadMore}
            search={browser.search}
            prompting={browser.prompting}
            onSearchChange={browser.setSearch}
            onSearchDone={browser.endSearch}
            onSelect={browser.setSelectedId}
            onAction={conversations.act}
            onFocus={dialog === null ? () => setFocus("sidebar") : undefined}
          />
          {blocker ? (
            <Blocker width={mainWidth} height={bodyHeight} />
          ) : (
            <ConversationView
              width={mainWidth}
              height={bodyHeight}
              paneHeight={paneHeight}
              conversation={open}
              lastOpenedAt={browser.lastOpenedBefore}
              me={me}
              items={items}
              history={history}
              pinned={pinned}
              focus={{
                messages: focus === "messages" && dialog === null,
                // A question or the picker is about the selected message: it stays marked.
                marked:
                  focus === "messages" &&
                  (dialog === null || dialog.kind === "confirm" || dialog.kind === "react"),
                composer: focus === "composer" && dialog === null,
              }}
              dialog={dialog}
              closeDialog={dialogs.close}
              drafts={drafts}
              editing={editing}
              conversations={conversations}
              messages={messages}
              onMessageAction={messages.act}
              onLeaveMessages={() => setFocus("sidebar")}
              onFocusMessages={dialog === null ? () => setFocus("messages") : undefined}
              onFocusComposer={dialog === null ? () => setFocus("composer") : undefined}
              onLeaveComposer={() => {
                drafts.endEdit(openId);
                setFocus("messages");
              }}
            />
          )}
        </Box>
      )}
      <StatusBar
        width={columns}
        hints={hintsFor(dialog?.kind, focus, editing !== null)}
        notice={notice}
        connection={connection}
        prompt={dialog?.kind === "confirm" ? dialog.prompt : undefined}
      />
    </Box>
  );
}
