// The keys of the whole screen, at the lowest priority, so panes and dialogs see every
// key first: Tab between panes, and (when not typing) filters, search, new, help, quit.
import { PRIORITY, useKeypress } from "../keys.tsx";
import { FILTERS } from "../queries/conversations.ts";
import type { useConversationBrowser } from "./useConversationBrowser.ts";
import type { useDialog } from "./useDialog.ts";
import type { Focus, useFocus } from "./useFocus.ts";

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
  useKeypress(
    (input, key) => {
      if (key.tab) {
        if (focus === "composer") props.endEdit();
        props.cycle(key.shift ? -1 : 1);
        return true;
      }
      if (focus === "composer") return false;
      const digit = Number(input);
      if (digit >= 1 && digit <= FILTERS.length) {
        browser.showFilter(FILTERS[digit - 1]!);
        setFocus("sidebar");
      } else if (input === "/") {
        browser.setSearch("");
        setFocus("sidebar");
      } else if (input === "n") dialogs.show({ kind: "new" });
      else if (input === "?") dialogs.show({ kind: "help" });
      else if (input === "q") props.onQuit();
      else if (key.escape && focus === "messages") setFocus("sidebar");
      else return false;
      return true;
    },
    { priority: PRIORITY.global },
  );
}
