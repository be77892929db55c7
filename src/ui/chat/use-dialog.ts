// The one dialog that can be open over the screen: help, the reaction picker, the link
// chooser, the new-conversation prompt, the attach prompt, or a yes/no question, which
// owns the next key.
import { useState } from "react";
import type { Message } from "../../api/schema.ts";
import { PRIORITY, useBindings } from "../keys/dispatcher.tsx";
import type { MessageLink } from "../model/message-links.ts";
import type { StatusLine } from "../screen/status-line.ts";

export type Dialog =
  | { kind: "help" }
  | { kind: "react"; message: Message }
  | { kind: "links"; links: readonly MessageLink[]; verb: "open" | "copy" }
  | { kind: "reactors"; message: Message }
  | { kind: "confirm"; prompt: string; run: () => void }
  | { kind: "new" }
  | { kind: "attach"; message: Message }
  | null;

export function useDialog(status: StatusLine) {
  const [dialog, setDialog] = useState<Dialog>(null);

  // A confirmation owns the next key: y does it, anything else keeps things as they are.
  const answer = (yes: boolean) => {
    if (dialog?.kind !== "confirm") return;
    setDialog(null);
    if (yes) dialog.run();
    else status.info("Kept.");
  };
  useBindings(
    "confirm",
    { "confirm.yes": () => answer(true), "confirm.keep": () => answer(false) },
    { priority: PRIORITY.dialog, isActive: dialog?.kind === "confirm" },
  );

  return {
    dialog,
    dialogs: {
      show: setDialog,
      close: () => setDialog(null),
      confirm: (prompt: string, run: () => void) => setDialog({ kind: "confirm", prompt, run }),
    } satisfies Dialogs,
  };
}

export type Dialogs = {
  show(dialog: Dialog): void;
  close(): void;
  /** Asks; `y` runs `run`, any other key keeps things as they are. */
  confirm(prompt: string, run: () => void): void;
};
