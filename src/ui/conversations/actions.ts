// What a person can do to a conversation, in their words: each intent builds its own
// request and says what happened in the status bar.
import type { Conversation, UpdateConversationParams } from "../../api/schema.ts";
import type { ScopeBinding } from "../keys/bindings.ts";
import { useCreateConversation } from "../queries/conversations.ts";
import { useContacts, useSession, useStatusLine } from "../screen/session-context.tsx";
import { conversationName } from "./names.ts";

export type ConversationUi = {
  /** Ask before something that cannot be undone; `run` goes ahead. */
  confirm(prompt: string, run: () => void): void;
  /** Show the conversation and move to its composer. */
  show(conversation: Conversation): void;
  /** A conversation just started: show it, wherever the filter was. */
  started(conversation: Conversation): void;
  /** The conversation is gone (close it if it is open). */
  forget(id: string): void;
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function useConversationActions(ui: ConversationUi) {
  const contacts = useContacts();
  const status = useStatusLine();
  const create = useCreateConversation();
  const { mentionsOnly, outbox } = useSession();
  const queue = outbox.add;
  const setMentionsOnly = (id: string, on: boolean) =>
    mentionsOnly.set((ids) => {
      if (ids.has(id) === on) return ids;
      const next = new Set(ids);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const nameOf = (c: Conversation) => conversationName(c, contacts);

  /** One switch of a conversation: `[to do, done]` in words, for either way it can go. */
  const toggle = (
    c: Conversation,
    params: UpdateConversationParams,
    [verb, done]: [string, string],
  ) => {
    status.clear();
    const label = nameOf(c);
    queue(
      { kind: "updateConversation", conversationId: c.id, params },
      { failure: `Could not ${verb} ${label}`, success: `${done} ${label}.` },
    );
  };

  const actions = {
    nameOf,
    open: (c: Conversation) => {
      status.clear();
      ui.show(c);
    },
    togglePin: (c: Conversation) =>
      toggle(
        c,
        { is_pinned: !c.is_pinned },
        c.is_pinned ? ["unpin", "Unpinned"] : ["pin", "Pinned"],
      ),
    toggleMute: (c: Conversation) => {
      setMentionsOnly(c.id, false);
      toggle(c, { is_muted: !c.is_muted }, c.is_muted ? ["unmute", "Unmuted"] : ["mute", "Muted"]);
    },
    /**
     * What rings, round three modes: all (not muted), mentions (muted on the server, so
     * every client of yours keeps it quiet and under Muted, but a message naming you rings
     * here), none (muted).
     */
    cycleNotify: (c: Conversation) => {
      const label = nameOf(c);
      if (!c.is_muted) {
        setMentionsOnly(c.id, true);
        queue(
          { kind: "updateConversation", conversationId: c.id, params: { is_muted: true } },
          {
            failure: `Could not mute ${label}`,
            success: `${label}: only messages that name you ring.`,
          },
        );
      } else if (mentionsOnly.get().has(c.id)) {
        setMentionsOnly(c.id, false);
        status.info(`${label}: muted, nothing rings.`);
      } else {
        toggle(c, { is_muted: false }, ["unmute", "Unmuted"]);
      }
    },
    toggleArchive: (c: Conversation) =>
      c.archived_at === null
        ? toggle(c, { archived_at: nowSeconds() }, ["archive", "Archived"])
        : toggle(c, { archived_at: null }, ["restore", "Restored"]),
    /** Pins `messageId` in the conversation, or unpins it if it is the pinned one. */
    toggleMessagePin: (c: Conversation, messageId: string) =>
      c.pinned_message_id === messageId
        ? toggle(c, { pinned_message_id: null }, [
            "unpin the message in",
            "Unpinned the message in",
          ])
        : toggle(c, { pinned_message_id: messageId }, [
            "pin the message in",
            "Pinned the message in",
          ]),
    /**
     * A contact conversation goes for both of its members. A group's is the operator's
     * (the server answers 403): archiving it, for you alone, is offered instead.
     */
    remove: (c: Conversation) => {
      status.clear();
      const label = nameOf(c);
      if (c.group_id !== null) {
        const refusal = `${label} is a group: it is the server operator's, not yours to delete`;
        if (c.archived_at !== null) {
          status.note(`${refusal}; it is archived for you already.`);
          return;
        }
        ui.confirm(`${refusal}. Archive it for you? y archives, any other key keeps it`, () =>
          actions.toggleArchive(c),
        );
        return;
      }
      ui.confirm(
        `Delete the conversation with ${label} and all its messages, for both of you? y deletes, any other key keeps it`,
        () => {
          ui.forget(c.id);
          queue(
            { kind: "deleteConversation", conversationId: c.id },
            { failure: `Could not delete ${label}`, success: `Deleted ${label}.` },
          );
        },
      );
    },
    /**
     * A contact id, or a group id (`grp_…`), as the new-conversation prompt found it from
     * a name, a pick or the id typed (new-conversation.tsx).
     */
    start: (id: string) =>
      create.mutate(id.startsWith("grp_") ? { group_id: id } : { contact_id: id }, {
        onSuccess: (c) => {
          // "Deleted dave." is no longer so once a conversation with dave starts again.
          status.clear();
          ui.started(c);
        },
      }),
  };
  /** The conversation list's keys on the selected conversation, by binding id. */
  const onKey: Record<RowBinding, (c: Conversation) => void> = {
    "conversation.open": actions.open,
    "conversation.pin": actions.togglePin,
    "conversation.mute": actions.toggleMute,
    "conversation.notify": actions.cycleNotify,
    "conversation.archive": actions.toggleArchive,
    "conversation.delete": actions.remove,
  };
  return { ...actions, onKey };
}

/** The list's bindings that act on the selected conversation (the rest move or search). */
export type RowBinding = Extract<
  ScopeBinding<"conversations">,
  | "conversation.open"
  | "conversation.pin"
  | "conversation.mute"
  | "conversation.notify"
  | "conversation.archive"
  | "conversation.delete"
>;

export type ConversationActions = ReturnType<typeof useConversationActions>;
