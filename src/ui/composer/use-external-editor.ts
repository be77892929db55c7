// Ctrl+G / Ctrl+X Ctrl+E in the composer: the draft (or the message being edited) goes to
// the person's editor through the session's `editText` (src/client/external-editor.ts) and
// what they saved comes back as the draft, not sent. Where there is no editor at the
// person's end (parley ssh: it would run on the server), it says so.
import { useRef } from "react";
import { useSession } from "../screen/session-context.tsx";
import type { Drafts } from "./drafts.ts";
import { fromText } from "./editor.ts";

export const NO_EDITOR = "Ctrl+G cannot open an editor over parley ssh: it would run on the server";

export function useExternalEditor(drafts: Drafts): (conversationId: string) => void {
  const { editText, status } = useSession();
  const busy = useRef(false);
  return (conversationId) => {
    if (!editText) {
      status.note(NO_EDITOR);
      return;
    }
    if (busy.current) return;
    busy.current = true;
    const before = drafts.get(conversationId).value;
    editText(before)
      .then((result) => {
        if (!result.ok) status.error("Draft not changed", result.reason);
        else drafts.update(conversationId, () => fromText(result.text));
      })
      .catch((error: unknown) => status.error("Draft not changed", error))
      .finally(() => {
        busy.current = false;
      });
  };
}
