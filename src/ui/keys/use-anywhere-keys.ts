// Keys that work from anywhere, even over a dialog: Ctrl+C quits; Ctrl+L draws the whole
// screen again (after something else wrote on it: a `wall`, a background job, a glitch
// over SSH), by the path a resize takes; Ctrl+R asks the server for everything on screen
// now, also instead of waiting out the back-off while it was unreachable. Ctrl+Z
// suspends, where a shell's job control can take it.
import { useStdout } from "ink";
import { useRefreshAll } from "../queries/polling.ts";
import { useSession } from "../screen/session-context.tsx";
import { matchBinding } from "./bindings.ts";
import { PRIORITY, useKeypress } from "./dispatcher.tsx";

export function useAnywhereKeys(quit: () => void): void {
  const { stdout } = useStdout();
  const { status, suspend } = useSession();
  const refreshAll = useRefreshAll();
  useKeypress(
    (input, key) => {
      const action = matchBinding("anywhere", input, key);
      if (action === "global.quit") quit();
      else if (action === "global.redraw") stdout.emit("resize");
      else if (action === "global.refresh") {
        status.info("Refreshing…");
        void refreshAll().then(() => {
          if (status.notice.get()?.text === "Refreshing…") status.clear();
        });
      } else if (action === "global.suspend") {
        if (suspend) suspend();
        else status.info("Ctrl+Z cannot suspend over parley ssh");
      } else return false;
      return true;
    },
    { priority: PRIORITY.dialog + 100 },
  );
}
