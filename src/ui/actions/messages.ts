// What a person can do with messages: send, edit, delete, react, pin, copy, and retry or
// drop a failed send. Each intent builds its own request and its own status wording.
import type { Conversation, Message } from "../../api/schema.ts";
import type { MessageAction } from "../components/MessagePane.tsx";
import type { Drafts } from "../hooks/useDrafts.ts";
import type { Item } from "../messageLines.ts";
import { type OutboxEntry, sendChange, useQueueChange } from "../queries/outbox.ts";
import { toggledReactors } from "../reactions.ts";
import { useMe, useSession } from "../session.tsx";
import { copyToClipboard } from "../terminal.ts";
import type { ConversationActions } from "./conversations.ts";

export type MessageUi = {
  conversation: Conversation | undefined;
  drafts: Drafts;
  conversations: ConversationActions;
  confirm(prompt: string, run: () => void): void;
  pickReaction(message: Message): void;
  /** Shows who reacted to `message`, with what. */
  showReactors(message: Message): void;
  /** The composer takes over (an edit started). */
  toComposer(): void;
};

export function useMessageActions(ui: MessageUi) {
  const session = useSession();
  const { status } = session;
  const me = useMe();
  const queue = useQueueChange();
  const { outbox } = session;
  const openId = ui.conversation?.id;
  const isMine = (m: Message) => me !== undefined && m.contact.username === me;
  const copy = (text: string) => copyToClipboard(session.terminal, status, text);

  const startEdit = (message: Message) => {
    if (!isMine(message)) {
      status.error("Cannot edit", new Error("only your own messages can be edited"));
      return;
    }
    ui.drafts.startEdit(openId, message);
    ui.toComposer();
  };

  const actions = {
    isMine,
    startEdit,
    /** The composer's Enter: sends the draft, or saves the edit in progress. */
    submit: (text: string) => {
      if (!openId) return;
      status.clear();
      const editing = ui.drafts.editing.get();
      if (editing) {
        const { message } = editing;
        if (text.trim() !== message.message.trim()) {
          queue(
            { kind: "edit", conversationId: openId, messageId: message.id, text },
            { failure: "Could not edit the message" },
          );
        }
        ui.drafts.endEdit(openId);
        return;
      }
      queue(sendChange(openId, text), { failure: "Not sent (Enter on it retries)" });
      ui.drafts.clear(openId);
    },
    /** ↑ on an empty draft: edit your newest message. */
    editLast: (history: readonly Message[]) => {
      const last = history.findLast(isMine);
      if (last) startEdit(last);
    },
    react: (message: Message) => {
      if (!me)
        return status.error(
          "Cannot react",
          new Error("send a message first, so parley learns who you are"),
        );
      ui.pickReaction(message);
    },
    toggleReaction: (message: Message, name: string) => {
      if (!me) return;
      queue(
        {
          kind: "react",
          conversationId: message.conversation_id,
          messageId: message.id,
          name,
          users: toggledReactors(message, name, me),
        },
        { failure: "Could not react" },
      );
    },
    remove: (message: Message) => {
      if (!isMine(message))
        return status.error("Cannot delete", new Error("only your own messages can be deleted"));
      ui.confirm("Delete this message for everyone? y deletes, any other key keeps it", () =>
        queue(
          { kind: "deleteMessage", conversationId: message.conversation_id, messageId: message.id },
          { failure: "Could not delete the message", success: "Message deleted." },
        ),
      );
    },
    togglePin: (message: Message) => {
      if (ui.conversation) ui.conversations.toggleMessagePin(ui.conversation, message.id);
    },
    copy: (message: Message) => {
      const attachment = message.attachments[0];
      copy(
        message.message.trim() ? message.message : (attachment?.file_url ?? attachment?.url ?? ""),
      );
    },
    copyUnsent: (entry: OutboxEntry) => copy(entry.text),
    retry: (entry: OutboxEntry) => {
      if (entry.status === "pending") return status.info("Still sending…");
      outbox.retry(entry.id);
    },
    drop: (entry: OutboxEntry) => {
      if (entry.status === "pending") return status.info("Still sending…");
      outbox.remove(entry.id);
      status.info("Dropped the unsent message.");
    },
  };
  return {
    ...actions,
    /** A key in the messages pane, on the selected message or unsent one. */
    act(action: MessageAction, item: Item) {
      status.clear();
      if (item.kind === "outbox") {
        const { entry } = item;
        if (action === "retry") actions.retry(entry);
        else if (action === "drop") actions.drop(entry);
        else if (action === "copy") actions.copyUnsent(entry);
        else if (entry.status === "pending") status.info("Still sending…");
        return;
      }
      const { message } = item;
      if (action === "react") actions.react(message);
      else if (action === "reactors") ui.showReactors(message);
      else if (action === "edit") actions.startEdit(message);
      else if (action === "delete") actions.remove(message);
      else if (action === "pin") actions.togglePin(message);
      else if (action === "copy") actions.copy(message);
    },
  };
}

export type MessageActions = ReturnType<typeof useMessageActions>;
