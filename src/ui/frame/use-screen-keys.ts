// The keys of the whole screen. Two levels: the keys that work anywhere, even over a
// dialog (above everything: Ctrl+C quits; Ctrl+L draws the whole screen again, by the path
// a resize takes, after something else wrote on it; Ctrl+R asks the server for everything
// on screen now, also instead of waiting out a back-off; Ctrl+Z suspends where a shell's
// job control can take it), and, below the panes, Tab between panes and (when not typing)
// filters, new, the next unread conversation, help, quit. Esc from the messages and / in
// the list are their panes' own.
import { useStdout } from "ink";
import { useChatActions, useChatState } from "../chat/chat-context.tsx";
import { PRIORITY, useBindings } from "../keys/dispatcher.tsx";
import { FILTERS } from "../queries/conversations.ts";
import { useRefreshAll } from "../queries/polling.ts";
import { useSession } from "../screen/session-context.tsx";

/** Ctrl+C, Ctrl+L, Ctrl+R and Ctrl+Z: also on the too-small screen. */
export function useAnywhereKeys(quit: () => void): void {
  const { stdout } = useStdout();
  const { status, suspend } = useSession();
  const refreshAll = useRefreshAll();
  useBindings(
    "anywhere",
    {
      "global.quit": quit,
      "global.redraw": () => {
        stdout.emit("resize");
      },
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
    },
    { priority: PRIORITY.anywhere },
  );
}

/** Tab and the screen's own keys, at the lowest priority: panes and dialogs see every key first. */
export function useScreenKeys(): void {
  const { focus, browser } = useChatState();
  const { dialogs, setFocus, cycleFocus, endEdit, openNextUnread, quit, toggleSidebar } =
    useChatActions();
  const cycle = (step: 1 | -1) => {
    if (focus === "composer") endEdit();
    cycleFocus(step);
  };
  useBindings(
    "panes",
    { "global.nextPane": () => cycle(1), "global.previousPane": () => cycle(-1) },
    { priority: PRIORITY.screen },
  );
  // The composer takes these keys as text.
  useBindings(
    "not typing",
    {
      // The binding's keys are the digits 1 to 4: the input is the filter's number.
      "app.filter": (input) => {
        browser.showFilter(FILTERS[Number(input) - 1]!);
        toggleSidebar(true);
        setFocus("sidebar");
      },
      "app.sidebar": () => toggleSidebar(),
      "app.nextUnread": openNextUnread,
      "app.newConversation": () => dialogs.show({ kind: "new" }),
      "app.help": () => dialogs.show({ kind: "help" }),
      "app.quit": quit,
    },
    { priority: PRIORITY.screen, isActive: focus !== "composer" },
  );
}
