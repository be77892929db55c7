// The right side of the screen: the open conversation's messages, and below them the
// composer, the reaction picker, the link chooser, the new-conversation or the attach
// prompt; a note when none is open.
import { Box } from "ink";
import type { Conversation } from "../../api/schema.ts";
import { Composer } from "../composer/composer.tsx";
import type { Drafts, Editing } from "../composer/drafts.ts";
import type { ConversationActions } from "../conversations/actions.ts";
import { conversationIcons } from "../conversations/names.ts";
import { NewConversation } from "../conversations/new-conversation.tsx";
import type { useMessages } from "../queries/history.ts";
import { CenteredNote } from "../screen/panel.tsx";
import type { MessageActions } from "./actions.ts";
import { AttachPrompt } from "./attach-prompt.tsx";
import { LinkPicker } from "./link-picker.tsx";
import type { Item } from "./message-lines.ts";
import { type MessageAction, MessagePane } from "./message-pane.tsx";
import { usedReactionNames } from "./reaction-names.ts";
import { ReactionPicker } from "./reaction-picker.tsx";
import { myReactions } from "./reactions.ts";
import { Reactors } from "./reactors.tsx";
import type { Dialog } from "./use-dialog.ts";

type Props = {
  width: number;
  height: number;
  paneHeight: number;
  conversation: Conversation | undefined;
  /** The open conversation's last opening before this one (its unread messages start after). */
  lastOpenedAt: number | null;
  me: string | undefined;
  items: Item[];
  history: ReturnType<typeof useMessages>;
  pinned: Parameters<typeof MessagePane>[0]["pinned"];
  focus: { messages: boolean; marked: boolean; composer: boolean };
  dialog: Dialog;
  closeDialog: () => void;
  drafts: Drafts;
  editing: Editing;
  conversations: ConversationActions;
  messages: MessageActions;
  onMessageAction: (action: MessageAction, item: Item) => void;
  onLeaveMessages: () => void;
  /** A click on the messages focuses them; absent while a dialog is open. */
  onFocusMessages?: () => void;
  /** A click on the composer focuses it; absent while a dialog is open. */
  onFocusComposer?: () => void;
  onLeaveComposer: () => void;
};

export function ConversationView(props: Props) {
  const { conversation: open, dialog, width, history, messages, editing } = props;
  const title = open ? props.conversations.nameOf(open) : "";
  return (
    <Box flexDirection="column" width={width} height={props.height}>
      {open ? (
        <MessagePane
          key={open.id}
          title={title}
          icons={conversationIcons(open)}
          width={width}
          height={props.paneHeight}
          focused={props.focus.messages}
          marked={props.focus.marked}
          items={props.items}
          me={props.me}
          pinned={props.pinned}
          loading={history.isLoading}
          lastOpenedAt={props.lastOpenedAt}
          hasOlder={history.hasOlder}
          isLoadingOlder={history.isLoadingOlder}
          loadOlder={history.loadOlder}
          onAction={props.onMessageAction}
          onLeave={props.onLeaveMessages}
          onFocus={props.onFocusMessages}
        />
      ) : (
        <CenteredNote
          width={width}
          height={props.paneHeight}
          lines={[
            "No conversation open",
            "↑↓ to choose one · Enter opens it",
            "n starts a new one · ? help",
          ]}
        />
      )}
      {dialog?.kind === "react" ? (
        <ReactionPicker
          width={width}
          mine={myReactions(dialog.message, props.me)}
          used={usedReactionNames(history.messages)}
          onPick={(name) => {
            messages.toggleReaction(dialog.message, name);
            props.closeDialog();
          }}
          onClose={props.closeDialog}
        />
      ) : null}
      {dialog?.kind === "links" ? (
        <LinkPicker
          width={width}
          links={dialog.links}
          verb={dialog.verb}
          onPick={(link) => {
            props.closeDialog();
            messages.takeLink(link, dialog.verb);
          }}
          onClose={props.closeDialog}
        />
      ) : null}
      {dialog?.kind === "reactors" ? (
        <Reactors
          width={width}
          message={dialog.message}
          me={props.me}
          onClose={props.closeDialog}
        />
      ) : null}
      {dialog?.kind === "new" ? (
        <NewConversation
          width={width}
          me={props.me}
          onCancel={props.closeDialog}
          onSubmit={(id) => {
            props.closeDialog();
            props.conversations.start(id);
          }}
        />
      ) : dialog?.kind === "attach" ? (
        <AttachPrompt
          width={width}
          onCancel={props.closeDialog}
          onSubmit={(line) => {
            props.closeDialog();
            messages.attachTo(dialog.message, line);
          }}
        />
      ) : open ? (
        <Composer
          width={width}
          focused={props.focus.composer}
          drafts={props.drafts}
          conversationId={open.id}
          label={editing ? "editing" : undefined}
          placeholder={
            editing
              ? "Enter saves · Esc cancels"
              : `Message ${title} · Enter sends · /attach URL adds a file`
          }
          onSubmit={messages.submit}
          onEscape={props.onLeaveComposer}
          onEditLast={() => messages.editLast(history.messages)}
          onFocus={props.onFocusComposer}
        />
      ) : null}
    </Box>
  );
}
