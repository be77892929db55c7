// What a person can do with messages: send, edit, delete, react, pin, copy, open or copy
// a link, and retry or drop a failed send. Each intent builds its own request and its own
// status wording.
import type { Conversation, Message } from "../../api/schema.ts";
import type { Dialogs } from "../chat/use-dialog.ts";
import {
  attachmentFromLine,
  detach,
  MAX_ATTACHMENTS,
  parseComposerInput,
  textForAttachments,
} from "../composer/commands.ts";
import type { Drafts } from "../composer/drafts.ts";
import { fromText } from "../composer/editor.ts";
import { tooLongReason } from "../composer/length-note.ts";
import type { ConversationActions } from "../conversations/actions.ts";
import type { ScopeBinding } from "../keys/bindings.ts";
import { type MessageLink, messageLinks } from "../model/message-links.ts";
import { quoteOf } from "../model/quote.ts";
import { toggledReactors } from "../model/reactions.ts";
import { type OutboxEntry, sendChange } from "../queries/outbox.ts";
import { useMe, useSession } from "../screen/session-context.tsx";
import { describeError } from "../screen/status-line.ts";
import { clipboardUrl, copyToClipboard } from "../screen/terminal-out.ts";
import { formatBytes } from "../text/format.ts";
import { truncate } from "../text/width.ts";
import type { Item } from "./message-lines.ts";
import { useUpload } from "./upload.ts";

export type MessageUi = {
  conversation: Conversation | undefined;
  drafts: Drafts;
  conversations: ConversationActions;
  /** The screen's one dialog: the pickers, who reacted, the attach prompt, a question. */
  dialogs: Dialogs;
  /** The composer takes over (an edit started). */
  toComposer(): void;
};

export function useMessageActions(ui: MessageUi) {
  const session = useSession();
  const { status } = session;
  const me = useMe();
  const { outbox } = session;
  const queue = outbox.add;
  const openId = ui.conversation?.id;
  const isMine = (m: Message) => me !== undefined && m.contact.username === me;
  const copy = (text: string) => copyToClipboard(session.terminal, status, text);
  const upload = useUpload(ui.drafts);

  /** Opens a link, or copies it where parley cannot open it (over SSH). */
  const takeLink = (link: MessageLink, verb: "open" | "copy") => {
    const shown = truncate(link.url, 60);
    if (verb === "copy") {
      copyToClipboard(session.terminal, status, link.url, `Copied ${shown} to the clipboard.`);
      return;
    }
    const { openUrl } = session;
    if (!openUrl) {
      copyToClipboard(
        session.terminal,
        status,
        link.url,
        "Copied the link (parley runs over SSH, so it cannot open it here).",
      );
      return;
    }
    status.info(`Opening ${shown}…`);
    // Nothing could open it ($BROWSER, xdg-open or open): the link is in the clipboard instead.
    openUrl(link.url).catch((error: unknown) =>
      copyToClipboard(
        session.terminal,
        status,
        link.url,
        `Copied the link: could not open it (${describeError(error)}).`,
      ),
    );
  };
  /** `o` or `Y` on a message: its one link at once, or a chooser when it has several. */
  const links = (
    message: Pick<Message, "message" | "attachments">,
    verb: "open" | "copy",
  ): void => {
    const found = messageLinks(message);
    if (found.length === 0) {
      status.error(
        verb === "open" ? "Nothing to open" : "Nothing to copy",
        new Error("this message has no link or attachment"),
      );
    } else if (found.length === 1) takeLink(found[0]!, verb);
    else ui.dialogs.show({ kind: "links", links: found, verb });
  };

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
      // Past the server's limit a text could never land: it stays in the composer, with its count.
      if (editing) {
        const tooLong = tooLongReason(text);
        if (tooLong) return status.error("Not saved", new Error(tooLong));
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
      const input = parseComposerInput(text);
      const attached = ui.drafts.attachmentsOf(openId);
      const sendText = (typed: string) => {
        if (!typed.trim() && attached.length === 0) return;
        const tooLong = tooLongReason(typed);
        if (tooLong) return status.error("Not sent", new Error(tooLong));
        // The contract wants some text: with none typed, the file names stand in.
        const body = typed.trim() ? typed : textForAttachments(attached);
        queue(sendChange(openId, body, attached), { failure: "Not sent (Enter on it retries)" });
        ui.drafts.clear(openId);
      };
      const unknown = (command: string) =>
        status.error(
          `Unknown command ${command}`,
          new Error("the commands are /attach and /detach; // sends a leading /"),
        );
      switch (input.kind) {
        case "text":
          return sendText(input.text);
        case "upload": {
          if (attached.length >= MAX_ATTACHMENTS)
            return status.error(
              "Not attached",
              new Error(`a message takes at most ${MAX_ATTACHMENTS} attachments`),
            );
          void upload(openId, input.path, text);
          return;
        }
        case "path": {
          // Not a file here (or no disk of the person's, over parley ssh): what it was before.
          const asBefore = () =>
            input.text.startsWith("/") ? unknown(input.text.split(/\s/)[0]!) : sendText(input.text);
          const files = session.files;
          if (!files) return asBefore();
          void files
            .open(input.path)
            .then(
              (file) =>
                ui.dialogs.confirm(
                  `Attach ${truncate(file.filename, 40)} (${formatBytes(file.size)}) from your disk? y uploads it, any other key leaves the path in the composer`,
                  () => void upload(openId, input.path, text),
                ),
              asBefore,
            );
          return;
        }
        case "attach": {
          if (attached.length >= MAX_ATTACHMENTS)
            return status.error(
              "Not attached",
              new Error(`a message takes at most ${MAX_ATTACHMENTS} attachments`),
            );
          ui.drafts.setAttachments(openId, [...attached, input.attachment]);
          ui.drafts.clearText(openId);
          status.info(
            `Attached ${input.attachment.filename}: it goes with the next message you send (/detach removes it).`,
          );
          return;
        }
        case "detach": {
          const left = detach(attached, input.which);
          if ("reason" in left) return status.error("Nothing removed", new Error(left.reason));
          ui.drafts.setAttachments(openId, left.list);
          ui.drafts.clearText(openId);
          status.info(`Removed ${left.removed.filename}.`);
          return;
        }
        case "refused":
          return status.error(input.heading, new Error(input.reason));
        case "unknown":
          return unknown(input.command);
      }
    },
    /** The A prompt: adds the file `URL [file name]` names to the message (to the ones it has). */
    attachTo: (message: Message, line: string) => {
      const input = attachmentFromLine(line);
      if ("reason" in input) return status.error("Not attached", new Error(input.reason));
      queue(
        {
          kind: "attach",
          conversationId: message.conversation_id,
          messageId: message.id,
          attachments: [input.attachment],
        },
        {
          failure: "Could not add the attachment",
          success: `Attached ${input.attachment.filename}.`,
        },
      );
    },
    /** R on a message: the composer starts a reply with a quote of it (model/quote.ts). */
    reply: (message: Message) => {
      if (!openId) return;
      ui.drafts.endEdit(openId);
      const quote = quoteOf(message.contact.username, message.message);
      const draft = ui.drafts.get(openId).value;
      ui.drafts.update(openId, () => fromText(`${quote}\n${draft.replace(/^> .*\n/, "")}`));
      ui.toComposer();
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
      ui.dialogs.show({ kind: "react", message });
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
      ui.dialogs.confirm(
        "Delete this message for everyone? y deletes, any other key keeps it",
        () =>
          queue(
            {
              kind: "deleteMessage",
              conversationId: message.conversation_id,
              messageId: message.id,
            },
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
        message.message.trim()
          ? message.message
          : clipboardUrl(attachment?.file_url ?? attachment?.url),
      );
    },
    copyUnsent: (entry: OutboxEntry) => copy(entry.text),
    takeLink,
    links,
    retry: (entry: OutboxEntry) => {
      if (entry.status === "sending") return status.note("Still sending…");
      outbox.retry(entry.id);
    },
    /**
     * `e` on an unsent message: out of the outbox and back into the composer (after any
     * draft there), to change and send again, offline too. Not while it is on its way.
     */
    takeBack: (entry: OutboxEntry) => {
      const queued = outbox.changes.get().find((c) => c.id === entry.id);
      if (!queued) return;
      if (queued.status === "sending")
        return status.note("On its way to the server: it cannot be taken back now.");
      outbox.remove(entry.id);
      const id = entry.conversationId;
      ui.drafts.endEdit(id);
      const draft = ui.drafts.get(id).value;
      ui.drafts.update(id, () => fromText(draft.trim() ? `${draft}\n${entry.text}` : entry.text));
      const taken = entry.attachments.map((a) => ({
        file_url: a.file_url,
        filename: a.filename ?? a.file_url,
        ...(a.file_type ? { file_type: a.file_type } : {}),
      }));
      if (taken.length > 0)
        ui.drafts.setAttachments(id, [...ui.drafts.attachmentsOf(id), ...taken]);
      status.note(
        queued.tried
          ? "Took the unsent message back: Enter sends it (an earlier try may yet have reached the server)."
          : "Took the unsent message back: Enter sends it.",
      );
      ui.toComposer();
    },
    drop: (entry: OutboxEntry) => {
      if (entry.status === "sending") return status.note("Still sending…");
      // Asked as deleting a sent message is: the text goes for good.
      ui.dialogs.confirm("Drop this unsent message? y drops, any other key keeps it", () => {
        outbox.remove(entry.id);
        status.info("Dropped the unsent message.");
      });
    },
  };
  // A key on a message clears the last notice first (but a retry: its failure stays in view).
  /** A key for either kind of message: a sent one, or one still in the outbox. */
  const either =
    (unsent: (entry: OutboxEntry) => unknown, sent: (message: Message) => unknown) =>
    (item: Item): boolean => {
      status.clear();
      if (item.kind === "message") return sent(item.message) !== false;
      unsent(item.entry);
      return true;
    };
  /** A key that works on a sent message; on an unsent one it can only say it is sending. */
  const sentOnly = (act: (message: Message) => unknown) =>
    either((entry) => {
      if (entry.status === "sending") status.note("Still sending…");
    }, act);
  /** `o` or `Y`: an unsent message's links are in its text. */
  const linksOf = (verb: "open" | "copy") =>
    either(
      (entry) => links({ message: entry.text, attachments: [] }, verb),
      (message) => links(message, verb),
    );
  /** What each key of the messages pane does to the selected message, sent or not. */
  const onKey: Record<ItemBinding, (item: Item) => boolean> = {
    "message.react": sentOnly(actions.react),
    "message.reply": sentOnly(actions.reply),
    "message.reactors": sentOnly((message) => ui.dialogs.show({ kind: "reactors", message })),
    "message.edit": either(actions.takeBack, actions.startEdit),
    "message.delete": either(actions.drop, actions.remove),
    "message.pin": sentOnly(actions.togglePin),
    "message.copy": either(actions.copyUnsent, actions.copy),
    "message.open": linksOf("open"),
    "message.copyLink": linksOf("copy"),
    "message.attach": either(
      () => status.note("Not sent yet: A adds attachments to a sent message."),
      (message) => {
        if (!isMine(message))
          return status.error(
            "Cannot attach",
            new Error("only your own messages take attachments"),
          );
        ui.dialogs.show({ kind: "attach", message });
      },
    ),
    // Only an unsent message can be sent again; on a sent one Enter goes on down.
    "message.retry": (item) => {
      if (item.kind === "message") return false;
      actions.retry(item.entry);
      return true;
    },
  };
  return { ...actions, onKey };
}

/** The messages pane's bindings that act on the selected message (the rest move or search). */
export type ItemBinding = Exclude<
  ScopeBinding<"messages">,
  | "message.up"
  | "message.down"
  | "message.pageUp"
  | "message.pageDown"
  | "message.halfUp"
  | "message.halfDown"
  | "message.first"
  | "message.last"
  | "message.search"
  | "message.nextMatch"
  | "message.previousMatch"
  | "message.back"
>;

export type MessageActions = ReturnType<typeof useMessageActions>;
