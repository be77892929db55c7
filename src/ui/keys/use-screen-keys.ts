// The keys of the whole screen. Two levels: the keys that work anywhere, even over a
// dialog (above everything: Ctrl+C quits; Ctrl+L draws the whole screen again, by the path
// a resize takes, after something else wrote on it; Ctrl+R asks the server for everything
// on screen now, also instead of waiting out a back-off; Ctrl+Z suspends where a shell's
// job control can take it), and, below the panes, Tab between panes and (when not typing)
// filters, new, the next unread conversation, help, quit.
import { useStdout } from "ink";
import { FILTERS } from "../queries/conversations.ts";
import { useRefreshAll } from "../queries/polling.ts";
import { useChatActions, useChatState } from "../screen/chat-context.tsx";
import { useSession } from "../screen/session-context.tsx";
import { matchBinding, type ScopeBinding } from "./bindings.ts";
import { PRIORITY, useKeypress } from "./dispatcher.tsx";

/** Ctrl+C, Ctrl+L, Ctrl+R and Ctrl+Z: also on the too-small screen. */
export function useAnywhereKeys(quit: () => void): void {
  const { stdout } = useStdout();
  const { status, suspend } = useSession();
  const refreshAll = useRefreshAll();
  const actions: Partial<Record<ScopeBinding<"anywhere">, () => void>> = {
    "global.quit": quit,
    "global.redraw": () => stdout.emit("resize"),
    "global.refresh": () => {
      status.info("Refreshing…");
      void refreshAll().then(() => {
        if (status.notice.get()?.text === "Refreshing…") status.clear();
      });
    },
    "global.suspend": () => {
      if (suspend) suspend();
      else status.note("Ctrl+Z cannot suspend over parley ssh");
    },
  };
  useKeypress(
    (input, key) => {
      const run = actions[matchBinding("anywhere", input, key) as ScopeBinding<"anywhere">];
      run?.();
      return run !== undefined;
    },
    { priority: PRIORITY.anywhere },
  );
}

/** Tab and the screen's own keys, at the lowest priority: panes and dialogs see every key first. */
export function useScreenKeys(): void {
  const { focus, browser } = useChatState();
  const { dialogs, setFocus, cycleFocus, endEdit, openNextUnread, quit } = useChatActions();
  const notTyping: Record<ScopeBinding<"not typing">, (input: string) => void> = {
    // The binding's keys are the digits 1 to 4: the input is the filter's number.
    "app.filter": (input) => {
      browser.showFilter(FILTERS[Number(input) - 1]!);
      setFocus("sidebar");
    },
    "app.nextUnread": openNextUnread,
    "app.newConversation": () => dialogs.show({ kind: "new" }),
    "app.help": () => dialogs.show({ kind: "help" }),
    "app.quit": quit,
  };
  useKeypress(
    (input, key) => {
      const anywhere = matchBinding("anywhere", input, key);
      if (anywhere === "global.nextPane" || anywhere === "global.previousPane") {
        if (focus === "composer") endEdit();
        cycleFocus(anywhere === "global.previousPane" ? -1 : 1);
        return true;
      }
      if (focus === "composer") return false;
      const action = matchBinding("not typing", input, key);
      if (action) {
        notTyping[action](input);
        return true;
      }
      if (focus === "messages" && matchBinding("messages", input, key) === "message.back") {
        setFocus("sidebar");
        return true;
      }
      if (
        focus === "sidebar" &&
        matchBinding("conversations", input, key) === "conversation.search"
      ) {
        browser.openSearch();
        return true;
      }
      return false;
    },
    { priority: PRIORITY.screen },
  );
}
