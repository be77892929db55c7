// One draft per conversation, kept while switching, and the edit of one of your own
// messages, which borrows the composer and gives the draft back when it ends.
import { useState } from "react";
import type { Message } from "../../api/schema.ts";
import { type EditorState, fromText } from "../editor.ts";

const EMPTY_DRAFT = fromText("");

export type Editing = { message: Message; savedDraft: EditorState } | null;

export function useDrafts(openId: string | undefined) {
  const [drafts, setDrafts] = useState<Record<string, EditorState>>({});
  const [editing, setEditing] = useState<Editing>(null);
  const draft = (openId && drafts[openId]) || EMPTY_DRAFT;

  // Keys can arrive several in one read and are handled before React re-renders, so
  // edits apply to the latest draft, never to the one this render saw.
  const updateDraft = (edit: (current: EditorState) => EditorState) => {
    if (openId) setDrafts((all) => ({ ...all, [openId]: edit(all[openId] ?? EMPTY_DRAFT) }));
  };
  const setDraft = (next: EditorState) => updateDraft(() => next);

  return {
    draft,
    editing,
    updateDraft,
    setDraft,
    clearDraft: () => setDraft(EMPTY_DRAFT),
    /** Puts `message` in the composer; the draft waits until the edit ends. */
    startEdit(message: Message) {
      setEditing({ message, savedDraft: editing?.savedDraft ?? draft });
      setDraft(fromText(message.message));
    },
    /** Ends an edit (saved or not) and gives the draft back. */
    endEdit() {
      if (!editing) return;
      setDraft(editing.savedDraft);
      setEditing(null);
    },
  };
}
