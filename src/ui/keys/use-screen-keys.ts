// The keys of the whole screen, at the lowest priority, so panes and dialogs see every
// key first: Tab between panes, and (when not typing) filters, search, new, the next
// unread conversation, help, quit.

import type { useConversationBrowser } from "../conversations/use-conversation-browser.ts";
import type { useDialog } from "../messages/use-dialog.ts";
import { FILTERS } from "../queries/conversations.ts";
import { useStatusLine } from "../screen/session-context.tsx";
import type { Focus, useFocus } from "../screen/use-pane-focus.ts";
import { matchBinding } from "./bindings.ts";
import { PRIORITY, useKeypress } from "./dispatcher.tsx";

export function useScreenKeys(props: {
  focus: Focus;
  cycle: ReturnType<typeof useFocus>["cycle"];
  setFocus: (focus: Focus) => void;
  browser: ReturnType<typeof useConversationBrowser>;
  dialogs: Pick<ReturnType<typeof useDialog>, "show">;
  /** Leaving the composer ends an edit in progress. */
  endEdit: () => void;
  onQuit: () => void;
}): void {
  const { focus, setFocus, browser, dialogs } = props;
  const status = useStatusLine();
  /** The next conversation with unread messages, open at its messages so `u` goes on. */
  const openNextUnread = () => {
    const next = browser.nextUnread();
    if (!next) {
      status.info("No other conversation has unread messages.");
      return;
    }
    props.endEdit();
    browser.open(next);
    setFocus("messages");
  };
  useKeypress(
    (input, key) => {
      const anywhere = matchBinding("anywhere", input, key);
      if (anywhere === "global.nextPane" || anywhere === "global.previousPane") {
        if (focus === "composer") props.endEdit();
        props.cycle(anywhere === "global.previousPane" ? -1 : 1);
        return true;
      }
      if (focus === "composer") return false;
      const action = matchBinding("not typing", input, key);
      if (action === "app.filter") {
        // The binding's keys are the digits 1 to 4: the input is the filter's number.
        browser.showFilter(FILTERS[Number(input) - 1]!);
        setFocus("sidebar");
      } else if (action === "app.nextUnread") openNextUnread();
      else if (action === "app.newConversation") dialogs.show({ kind: "new" });
      else if (action === "app.help") dialogs.show({ kind: "help" });
      else if (action === "app.quit") props.onQuit();
      else if (focus === "messages" && matchBinding("messages", input, key) === "message.back")
        setFocus("sidebar");
      else if (
        focus === "sidebar" &&
        matchBinding("conversations", input, key) === "conversation.search"
      )
        browser.openSearch();
      else return false;
      return true;
    },
    { priority: PRIORITY.global },
  );
}
