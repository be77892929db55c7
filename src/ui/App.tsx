// The screen: header, sidebar, message pane with composer, status bar; focus, dialogs
// and the global keys. Server state comes from the query hooks; this component only
// turns keys into intents.
import { useQueryClient } from "@tanstack/react-query";
import { Box, useApp, useStdout, useWindowSize } from "ink";
import { useCallback, useEffect, useMemo, useState } from "react";
import { newIdempotencyKey } from "../api/client.ts";
import type { Conversation, Message } from "../api/schema.ts";
import { HINTS, matchBinding } from "./bindings.ts";
import { Blocker } from "./components/Blocker.tsx";
import { Composer, composerHeight } from "./components/Composer.tsx";
import { Header } from "./components/Header.tsx";
import { Help } from "./components/Help.tsx";
import { type MessageAction, MessagePane } from "./components/MessagePane.tsx";
import { NewConversation } from "./components/NewConversation.tsx";
import { CenteredNote } from "./components/Panel.tsx";
import { ReactionPicker } from "./components/ReactionPicker.tsx";
import { Sidebar, type SidebarAction } from "./components/Sidebar.tsx";
import { StatusBar } from "./components/StatusBar.tsx";
import { MIN_COLUMNS, MIN_ROWS, TooSmall } from "./components/TooSmall.tsx";
import { useDrafts, useDraftValue } from "./hooks/useDrafts.ts";
import { useNotifications } from "./hooks/useNotifications.ts";
import { PRIORITY, useKeypress } from "./input.tsx";
import type { Item } from "./messageLines.ts";
import { conversationIcons, conversationName } from "./names.ts";
import {
  FILTERS,
  type Filter,
  useConversationList,
  useCreateConversation,
  useDeleteConversation,
  useOpenConversation,
  useUpdateConversation,
} from "./queries/conversations.ts";
import {
  discardSend,
  useDeleteMessage,
  useEditMessage,
  useMessages,
  useOutbox,
  usePinnedMessage,
  useSendMessage,
  useToggleReaction,
} from "./queries/messages.ts";
import { useContacts, useMe, useSession } from "./session.tsx";
import { describeError } from "./status.ts";
import { useStore } from "./store.ts";
import { copyToClipboard } from "./terminal.ts";

type Focus = "sidebar" | "messages" | "composer";
const FOCUS_ORDER: Focus[] = ["sidebar", "messages", "composer"];

type Dialog =
  | { kind: "help" }
  | { kind: "react"; message: Message }
  | { kind: "confirm"; prompt: string; run: () => void }
  | { kind: "new" }
  | null;

export function App() {
  const { columns, rows } = useWindowSize();
  const { exit } = useApp();
  const quit = useCallback(() => exit(), [exit]);

  const { stdout } = useStdout();
  const queryClient = useQueryClient();
  const { status } = useSession();
  // From anywhere, even over a dialog: Ctrl+C quits; Ctrl+L draws the whole screen again
  // (after something else wrote on it: a `wall`, a background job, a glitch over SSH), by
  // the path a resize takes; Ctrl+R asks the server for everything on screen now, also
  // instead of waiting out the back-off while it was unreachable.
  useKeypress(
    (input, key) => {
      const action = matchBinding("anywhere", input, key);
      if (action === "global.quit") quit();
      else if (action === "global.redraw") stdout.emit("resize");
      else if (action === "global.refresh") {
        status.info("Refreshing…");
        void queryClient.refetchQueries({ type: "active" }).then(() => {
          if (status.notice.get()?.text === "Refreshing…") status.clear();
        });
      } else return false;
      return true;
    },
    { priority: PRIORITY.dialog + 100 },
  );

  if (columns < MIN_COLUMNS || rows < MIN_ROWS)
    return <TooSmallScreen columns={columns} rows={rows} onQuit={quit} />;
  return <ChatScreen columns={columns} rows={rows} onQuit={quit} />;
}

function TooSmallScreen({
  columns,
  rows,
  onQuit,
}: {
  columns: number;
  rows: number;
  onQuit: () => void;
}) {
  useKeypress(
    (input, key) => {
      if (matchBinding("not typing", input, key) === "app.quit") onQuit();
      return true;
    },
    { priority: PRIORITY.global },
  );
  return <TooSmall columns={columns} rows={rows} />;
}

function ChatScreen({
  columns,
  rows,
  onQuit,
}: {
  columns: number;
  rows: number;
  onQuit: () => void;
}) {
  const session = useSession();
  const me = useMe();
  const contacts = useContacts();
  const queryClient = useQueryClient();
  const status = session.status;
  const connection = useStore(status.connection);
  const notice = useStore(status.notice);

  const [focus, setFocus] = useState<Focus>("sidebar");
  const [filter, setFilter] = useState<Filter>("all");
  const [selectedId, setSelectedId] = useState<string>();
  const [openId, setOpenId] = useState<string>();
  const [search, setSearch] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);

  const list = useConversationList(filter, search !== null);
  const conversations = useMemo(() => {
    if (!search) return list.conversations;
    const q = search.toLowerCase();
    return list.conversations.filter((c) =>
      conversationName(c, contacts).toLowerCase().includes(q),
    );
  }, [list.conversations, search, contacts]);

  // Keep the sidebar cursor on something that exists.
  useEffect(() => {
    if (conversations.length > 0 && !conversations.some((c) => c.id === selectedId)) {
      setSelectedId(conversations[0]!.id);
    }
  }, [conversations, selectedId]);

  useNotifications(openId);
  const openQuery = useOpenConversation(openId);
  const listed = list.conversations.find((c) => c.id === openId);
  const open: Conversation | undefined = openQuery.data ?? listed;
  const history = useMessages(openId);
  const outbox = useOutbox(openId);
  const pinned = usePinnedMessage(open?.pinned_message_id, history.messages);
  const items: Item[] = useMemo(
    () => [
      ...history.messages.map((message): Item => ({ kind: "message", key: message.id, message })),
      ...outbox.map(
        (entry): Item => ({ kind: "outbox", key: `out:${entry.idempotencyKey}`, entry }),
      ),
    ],
    [history.messages, outbox],
  );

  const send = useSendMessage();
  const edit = useEditMessage();
  const removeMessage = useDeleteMessage();
  const react = useToggleReaction();
  const updateConversation = useUpdateConversation();
  const deleteConversation = useDeleteConversation();
  const createConversation = useCreateConversation();

  // Confirmations fade; errors stay until the next one or the next action.
  useEffect(() => {
    if (notice?.kind !== "info") return;
    const timer = setTimeout(status.clear, 5000);
    return () => clearTimeout(timer);
  }, [notice, status]);

  const drafts = useDrafts();
  const editing = useStore(drafts.editing);

  const openConversation = (c: Conversation) => {
    drafts.endEdit(openId);
    setOpenId(c.id);
    setSelectedId(c.id);
    setFocus("composer");
  };

  const nameOf = (c: Conversation) => conversationName(c, contacts);

  const onSidebarAction = (action: SidebarAction, c: Conversation) => {
    status.clear();
    const label = nameOf(c);
    switch (action) {
      case "open":
        return openConversation(c);
      case "pin":
        return updateConversation.mutate({ id: c.id, params: { is_pinned: !c.is_pinned }, label });
      case "mute":
        return updateConversation.mutate({ id: c.id, params: { is_muted: !c.is_muted }, label });
      case "archive":
        return updateConversation.mutate({
          id: c.id,
          params: { archived_at: c.archived_at === null ? Math.floor(Date.now() / 1000) : null },
          label,
        });
      case "delete":
        return setDialog({
          kind: "confirm",
          prompt: `Delete the conversation with ${label} and all its messages, for everyone? y deletes, any other key keeps it`,
          run: () => {
            if (openId === c.id) setOpenId(undefined);
            deleteConversation.mutate({ id: c.id, label });
          },
        });
    }
  };

  const isMine = (m: Message) => me !== undefined && m.contact.username === me;

  const startEdit = (message: Message) => {
    if (!isMine(message)) {
      status.error("Cannot edit", new Error("only your own messages can be edited"));
      return;
    }
    drafts.startEdit(openId, message);
    setFocus("composer");
  };

  const onMessageAction = (action: MessageAction, item: Item) => {
    status.clear();
    if (item.kind === "outbox") {
      const { entry } = item;
      if (action === "retry" && entry.status === "failed") {
        send.mutate({
          conversationId: entry.conversationId,
          text: entry.text,
          idempotencyKey: entry.idempotencyKey,
        });
      } else if (action === "drop" && entry.status === "failed") {
        discardSend(queryClient, entry.idempotencyKey);
        status.info("Dropped the unsent message.");
      } else if (action === "copy") {
        copyToClipboard(session.terminal, status, entry.text);
      } else if (entry.status === "pending") {
        status.info("Still sending…");
      }
      return;
    }
    const { message } = item;
    switch (action) {
      case "react":
        if (!me)
          return status.error(
            "Cannot react",
            new Error("send a message first, so parley learns who you are"),
          );
        return setDialog({ kind: "react", message });
      case "edit":
        return startEdit(message);
      case "delete":
        if (!isMine(message))
          return status.error("Cannot delete", new Error("only your own messages can be deleted"));
        return setDialog({
          kind: "confirm",
          prompt: "Delete this message for everyone? y deletes, any other key keeps it",
          run: () => removeMessage.mutate({ message }),
        });
      case "pin":
        if (!open) return;
        return updateConversation.mutate({
          id: open.id,
          params: { pinned_message_id: open.pinned_message_id === message.id ? null : message.id },
          label: nameOf(open),
        });
      case "copy": {
        const attachment = message.attachments[0];
        const text = message.message.trim()
          ? message.message
          : (attachment?.file_url ?? attachment?.url ?? "");
        copyToClipboard(session.terminal, status, text);
        return;
      }
      default:
        return;
    }
  };

  const submit = (text: string) => {
    if (!openId) return;
    status.clear();
    if (editing) {
      if (text.trim() !== editing.message.message.trim()) {
        edit.mutate({ message: editing.message, text });
      }
      drafts.endEdit(openId);
      return;
    }
    send.mutate({ conversationId: openId, text, idempotencyKey: newIdempotencyKey() });
    drafts.clear(openId);
  };

  const editLast = () => {
    const last = [...history.messages].reverse().find(isMine);
    if (last) startEdit(last);
  };

  // Global keys: lowest priority, so panes and dialogs see every key first.
  useKeypress(
    (input, key) => {
      const anywhere = matchBinding("anywhere", input, key);
      if (anywhere === "global.nextPane" || anywhere === "global.previousPane") {
        const step = anywhere === "global.previousPane" ? -1 : 1;
        const order = openId ? FOCUS_ORDER : (["sidebar"] as Focus[]);
        const next = order[(order.indexOf(focus) + step + order.length) % order.length]!;
        if (focus === "composer") drafts.endEdit(openId);
        setFocus(next);
        return true;
      }
      if (focus === "composer") return false;
      const action = matchBinding("not typing", input, key);
      if (action === "app.filter") {
        // The binding's keys are the digits 1 to 4: the input is the filter's number.
        setFilter(FILTERS[Number(input) - 1]!);
        setSearch(null);
        setFocus("sidebar");
      } else if (action === "app.search") {
        setSearch("");
        setFocus("sidebar");
      } else if (action === "app.newConversation") setDialog({ kind: "new" });
      else if (action === "app.help") setDialog({ kind: "help" });
      else if (action === "app.quit") onQuit();
      else if (focus === "messages" && matchBinding("messages", input, key) === "message.back")
        setFocus("sidebar");
      else return false;
      return true;
    },
    { priority: PRIORITY.global },
  );

  // A confirmation owns the next key: y does it, anything else keeps things as they are.
  useKeypress(
    (input, key) => {
      if (dialog?.kind !== "confirm") return false;
      if (matchBinding("anywhere", input, key) === "global.quit") return false;
      setDialog(null);
      if (matchBinding("confirm", input, key) === "confirm.yes") dialog.run();
      else status.info("Kept.");
      return true;
    },
    { priority: PRIORITY.dialog, isActive: dialog?.kind === "confirm" },
  );

  const sidebarWidth = Math.max(26, Math.min(40, Math.round(columns * 0.32)));
  const mainWidth = columns - sidebarWidth;
  const bodyHeight = rows - 2;
  const draftRows = useDraftValue(drafts, openId, (draft) => composerHeight(draft, mainWidth));
  const composerRows = dialog?.kind === "new" || !open ? 0 : draftRows;
  const pickerRows = dialog?.kind === "react" ? 3 : 0;
  const newRows = dialog?.kind === "new" ? 9 : 0;
  const paneHeight = Math.max(4, bodyHeight - composerRows - pickerRows - newRows);

  const blocker =
    connection.state === "unauthorized" ||
    (connection.state === "offline" && list.conversations.length === 0);
  const hints =
    dialog?.kind === "react"
      ? HINTS.react
      : dialog?.kind === "help"
        ? HINTS.help
        : editing && focus === "composer"
          ? HINTS.editing
          : HINTS[focus];

  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Header
        width={columns}
        me={me}
        server={session.serverLabel ?? session.baseUrl.replace(/^https?:\/\//, "")}
      />
      {dialog?.kind === "help" ? (
        <Help width={columns} height={bodyHeight} onClose={() => setDialog(null)} />
      ) : (
        <Box flexDirection="row" height={bodyHeight}>
          <Sidebar
            width={sidebarWidth}
            height={bodyHeight}
            focused={focus === "sidebar" && dialog === null}
            filter={filter}
            conversations={conversations}
            selectedId={selectedId}
            openId={openId}
            me={me}
            loading={list.isLoading}
            error={list.error ? describeError(list.error) : undefined}
            hasMore={list.hasMore}
            loadMore={list.loadMore}
            search={search}
            onSearchChange={setSearch}
            onSearchDone={(keep) => {
              if (!keep) setSearch(null);
              else setSearch((s) => (s === "" ? null : s));
            }}
            onSelect={setSelectedId}
            onAction={onSidebarAction}
          />
          {blocker ? (
            <Blocker width={mainWidth} height={bodyHeight} />
          ) : (
            <Box flexDirection="column" width={mainWidth} height={bodyHeight}>
              {open ? (
                <MessagePane
                  key={open.id}
                  title={nameOf(open)}
                  icons={conversationIcons(open)}
                  width={mainWidth}
                  height={paneHeight}
                  focused={focus === "messages" && dialog === null}
                  items={items}
                  me={me}
                  pinned={pinned}
                  loading={history.isLoading}
                  hasOlder={history.hasOlder}
                  isLoadingOlder={history.isLoadingOlder}
                  loadOlder={history.loadOlder}
                  onAction={onMessageAction}
                  onLeave={() => setFocus("sidebar")}
                />
              ) : (
                <CenteredNote
                  width={mainWidth}
                  height={paneHeight}
                  lines={[
                    "No conversation open",
                    "↑↓ to choose one · Enter opens it",
                    "n starts a new one · ? help",
                  ]}
                />
              )}
              {dialog?.kind === "react" ? (
                <ReactionPicker
                  width={mainWidth}
                  mine={
                    new Set(
                      dialog.message.reactions.flatMap((r) =>
                        Object.entries(r)
                          .filter(([, users]) => me !== undefined && users.includes(me))
                          .map(([name]) => name),
                      ),
                    )
                  }
                  onPick={(name) => {
                    react.mutate({ message: dialog.message, name, me: me! });
                    setDialog(null);
                  }}
                  onClose={() => setDialog(null)}
                />
              ) : null}
              {dialog?.kind === "new" ? (
                <NewConversation
                  width={mainWidth}
                  me={me}
                  onCancel={() => setDialog(null)}
                  onSubmit={(id) => {
                    setDialog(null);
                    createConversation.mutate(
                      id.startsWith("grp_") ? { group_id: id } : { contact_id: id },
                      {
                        onSuccess: (c) => {
                          setFilter("all");
                          openConversation(c);
                        },
                      },
                    );
                  }}
                />
              ) : open ? (
                <Composer
                  width={mainWidth}
                  focused={focus === "composer" && dialog === null}
                  drafts={drafts}
                  conversationId={open.id}
                  label={editing ? "editing" : undefined}
                  placeholder={
                    editing ? "Enter saves · Esc cancels" : `Message ${nameOf(open)} · Enter sends`
                  }
                  onSubmit={submit}
                  onEscape={() => {
                    drafts.endEdit(openId);
                    setFocus("messages");
                  }}
                  onEditLast={editLast}
                />
              ) : null}
            </Box>
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
