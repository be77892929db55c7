// The right side of the screen: the open conversation's messages, and below them the
// composer or one of the dialogs about a message (the reaction picker, the link chooser,
// who reacted, the attach prompt) or the new-conversation prompt; a note when none is open.
import { Box } from "ink";
import { Composer, composerHeight } from "../composer/composer.tsx";
import { useComposerRows } from "../composer/use-drafts.ts";
import { conversationIcons } from "../conversations/names.ts";
import { NewConversation } from "../conversations/new-conversation.tsx";
import { usePinnedMessage } from "../queries/history.ts";
import { useChatActions, useChatState } from "../screen/chat-context.tsx";
import { messagePaneHeight } from "../screen/layout.ts";
import { CenteredNote } from "../screen/panel.tsx";
import { AttachPrompt } from "./attach-prompt.tsx";
import { LinkPicker } from "./link-picker.tsx";
import { MessagePane } from "./message-pane.tsx";
import { usedReactionNames } from "./reaction-names.ts";
import { ReactionPicker } from "./reaction-picker.tsx";
import { myReactions } from "./reactions.ts";
import { Reactors, reactorsRows } from "./reactors.tsx";
import { useConversationItems } from "./use-conversation-items.ts";

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
  const { open, dialog, focus, me, browser, editing } = useChatState();
  const { dialogs, drafts, messages, conversations, setFocus, endEdit } = useChatActions();
  const { history, items } = useConversationItems(open?.id);
  const pinned = usePinnedMessage(open?.pinned_message_id, history.messages);
  const draftRows = useComposerRows(drafts, open?.id, width, composerHeight);
  const paneHeight = messagePaneHeight(height, {
    composer: dialog?.kind === "new" || dialog?.kind === "attach" || !open ? 0 : draftRows,
    picker: dialog?.kind === "react" || dialog?.kind === "links",
    reactors: dialog?.kind === "reactors" ? reactorsRows(dialog.message) : 0,
    newConversation: dialog?.kind === "new",
    attachPrompt: dialog?.kind === "attach",
  });
  const title = open ? conversations.nameOf(open) : "";
  // Where the composer or a prompt starts: right below the messages (no picker is open
  // between them while one of those has the keys).
  const below = { x: left, y: top + paneHeight };
  // A click focuses the composer; not while a dialog holds the keys.
  const focusComposer = dialog === null ? () => setFocus("composer") : undefined;
  return (
    <Box flexDirection="column" width={width} height={height}>
      {open ? (
        <MessagePane
          key={open.id}
          title={title}
          icons={conversationIcons(open)}
          width={width}
          height={paneHeight}
          origin={{ x: left, y: top }}
          focused={focus === "messages" && dialog === null}
          // A question or the picker is about the selected message: it stays marked.
          marked={
            focus === "messages" &&
            (dialog === null || dialog.kind === "confirm" || dialog.kind === "react")
          }
          items={items}
          me={me}
          pinned={pinned}
          loading={history.isLoading}
          error={history.error}
          lastOpenedAt={browser.lastOpenedBefore}
          hasOlder={history.hasOlder}
          isLoadingOlder={history.isLoadingOlder}
          loadOlder={history.loadOlder}
          hasNewer={history.hasNewer}
          isLoadingNewer={history.isLoadingNewer}
          loadNewer={history.loadNewer}
          toNewest={history.toNewest}
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
          mine={myReactions(dialog.message, me)}
          used={usedReactionNames(history.messages)}
          onPick={(name) => {
            messages.toggleReaction(dialog.message, name);
            dialogs.close();
          }}
          onClose={dialogs.close}
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
        <Reactors width={width} message={dialog.message} me={me} onClose={dialogs.close} />
      ) : null}
      {dialog?.kind === "new" ? (
        <NewConversation
          width={width}
          origin={below}
          me={me}
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
          focused={focus === "composer" && dialog === null}
          drafts={drafts}
          conversationId={open.id}
          label={editing ? "editing" : undefined}
          placeholder={
            editing
              ? "Enter saves · Esc cancels"
              : `Message ${title} · Enter sends · /attach URL adds a file`
          }
          onSubmit={messages.submit}
          onEscape={() => {
            endEdit();
            setFocus("messages");
          }}
          onEditLast={() => messages.editLast(history.messages)}
          onFocus={focusComposer}
          origin={below}
        />
      ) : null}
    </Box>
  );
}
