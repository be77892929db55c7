// Which pane has the keyboard: the conversation list, the messages, or the composer.
// Tab and Shift+Tab go round the panes there are (only the list with nothing open; not
// the list while it is hidden).
import { useState } from "react";

export type Focus = "sidebar" | "messages" | "composer";
const ORDER: Focus[] = ["sidebar", "messages", "composer"];

export function usePaneFocus(hasOpenConversation: boolean, sidebarShown = true) {
  const [focus, setFocus] = useState<Focus>("sidebar");
  return {
    focus,
    setFocus,
    /** The next pane (`step` 1) or the previous one (-1). */
    cycle(step: 1 | -1): Focus {
      const panes = sidebarShown ? ORDER : ORDER.filter((pane) => pane !== "sidebar");
      const order = hasOpenConversation ? panes : (["sidebar"] as Focus[]);
      const next = order[(order.indexOf(focus) + step + order.length) % order.length]!;
      setFocus(next);
      return next;
    },
  };
}
