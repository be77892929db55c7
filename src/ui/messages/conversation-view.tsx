// The right side of the screen: the open conversation's messages, and below them the
// composer or one of the dialogs about a message (the reaction picker, the link chooser,
// who reacted, the attach prompt) or the new-conversation prompt; a note when none is open.
import { Box } from "ink";
import { useLayoutEffect } from "react";
import { useChatActions, useChatState } from "../chat/chat-context.tsx";
import { Composer, composerHeight } from "../composer/composer.tsx";
import { useCompletion } from "../composer/use-completion.ts";
import { useComposerRows } from "../composer/use-drafts.ts";
import { NewConversation } from "../conversations/new-conversation.tsx";
import { useMessages, usePinnedMessage } from "../queries/history.ts";
import { messagePaneHeight } from "../screen/layout.ts";
import { CenteredNote } from "../screen/panel.tsx";
import { AttachPrompt } from "./attach-prompt.tsx";
import { LinkPicker } from "./link-picker.tsx";
import { MessagePane } from "./message-pane.tsx";
import { completeEmoji, usedReactionNames } from "./reaction-names.ts";
import { ReactionPicker } from "./reaction-picker.tsx";
import { Reactors, reactorsRows } from "./reactors.tsx";

/** `left` and `top`: the screen cell of the view's top-left corner. */
export function ConversationView({
  width,
  height,
  left,
  top,
}: {
  width: number;
  height: number;
  left: number;
  top: number;
}) {
  const { open, dialog, focus, completionShown } = useChatState();
  const { dialogs, drafts, messages, conversations } = useChatActions();
  const history = useMessages(open?.id);
  const pinned = usePinnedMessage(open?.pinned_message_id, history.messages);
  const completion = useCompletion(open, drafts, history.messages, completeEmoji);
  const listShown = focus === "composer" && dialog === null && completion?.shown === true;
  // The status bar says the list's keys while it shows; set before the frame is written.
  useLayoutEffect(() => {
    completionShown.set(listShown);
    return () => completionShown.set(false);
  }, [completionShown, listShown]);
  const draftRows = useComposerRows(drafts, open?.id, width, (draft, w, attached) =>
    composerHeight(draft, w, attached, listShown),
  );
  const paneHeight = messagePaneHeight(height, {
    composer: dialog?.kind === "new" || dialog?.kind === "attach" || !open ? 0 : draftRows,
    picker: dialog?.kind === "react" || dialog?.kind === "links",
    reactors: dialog?.kind === "reactors" ? reactorsRows(dialog.message) : 0,
    newConversation: dialog?.kind === "new",
    attachPrompt: dialog?.kind === "attach",
  });
  // Where the composer or a prompt starts: right below the messages (no picker is open
  // between them while one of those has the keys).
  const below = { x: left, y: top + paneHeight };
  return (
    <Box flexDirection="column" width={width} height={height}>
      {open ? (
        <MessagePane
          key={open.id}
          width={width}
          height={paneHeight}
          origin={{ x: left, y: top }}
          pinned={pinned}
          history={history}
        />
      ) : (
        <CenteredNote
          width={width}
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
          width={width}
          message={dialog.message}
          used={usedReactionNames(history.messages)}
        />
      ) : null}
      {dialog?.kind === "links" ? (
        <LinkPicker
          width={width}
          links={dialog.links}
          verb={dialog.verb}
          onPick={(link) => {
            dialogs.close();
            messages.takeLink(link, dialog.verb);
          }}
          onClose={dialogs.close}
        />
      ) : null}
      {dialog?.kind === "reactors" ? (
        <Reactors width={width} message={dialog.message} onClose={dialogs.close} />
      ) : null}
      {dialog?.kind === "new" ? (
        <NewConversation
          width={width}
          origin={below}
          onCancel={dialogs.close}
          onSubmit={(id) => {
            dialogs.close();
            conversations.start(id);
          }}
        />
      ) : dialog?.kind === "attach" ? (
        <AttachPrompt
          width={width}
          origin={below}
          onCancel={dialogs.close}
          onSubmit={(line) => {
            dialogs.close();
            messages.attachTo(dialog.message, line);
          }}
        />
      ) : open ? (
        <Composer
          width={width}
          origin={below}
          completion={completion}
          onEditLast={() => messages.editLast(history.messages)}
        />
      ) : null}
    </Box>
  );
}
