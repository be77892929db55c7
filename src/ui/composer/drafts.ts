// One draft per conversation (its text, and the attachments added with /attach), kept
// while switching, and the edit of one of your own messages, which borrows the composer and
// gives the draft back when it ends.
//
// Drafts live in a store outside React state (the hooks that read it are in
// use-drafts.ts): only the composer subscribes to the text, the screen only to how many
// rows it needs. A keystroke then re-renders the composer, not the sidebar and the message
// pane (this matters most for `parley ssh`, where one process renders every session).
import type { Message } from "../../api/schema.ts";
import { createStore } from "../model/store.ts";
import type { DraftAttachment } from "./commands.ts";
import { type EditorState, fromText } from "./editor.ts";

const EMPTY_DRAFT = fromText("");
const NO_ATTACHMENTS: readonly DraftAttachment[] = [];

export type Editing = { message: Message; savedDraft: EditorState } | null;

export type Drafts = ReturnType<typeof createDrafts>;

export function createDrafts(
  initial: Readonly<Record<string, string>> = {},
  initialAttachments: Readonly<Record<string, readonly DraftAttachment[]>> = {},
) {
  const texts = createStore<Readonly<Record<string, EditorState>>>(
    Object.fromEntries(Object.entries(initial).map(([id, text]) => [id, fromText(text)])),
  );
  const attachments =
    createStore<Readonly<Record<string, readonly DraftAttachment[]>>>(initialAttachments);
  const editing = createStore<Editing>(null);
  const get = (id: string | undefined) => (id && texts.get()[id]) || EMPTY_DRAFT;
  // Keys can arrive several in one read and are handled before React re-renders, so
  // edits apply to the latest draft, never to the one a render saw.
  const update = (id: string | undefined, edit: (current: EditorState) => EditorState) => {
    if (id) texts.set((all) => ({ ...all, [id]: edit(all[id] ?? EMPTY_DRAFT) }));
  };
  const attachmentsOf = (id: string | undefined) => (id && attachments.get()[id]) || NO_ATTACHMENTS;
  const setAttachments = (id: string | undefined, list: readonly DraftAttachment[]) => {
    if (!id) return;
    attachments.set((all) => {
      const { [id]: _, ...others } = all;
      return list.length > 0 ? { ...others, [id]: list } : others;
    });
  };
  return {
    texts,
    editing,
    get,
    update,
    attachments,
    attachmentsOf,
    setAttachments,
    /** Empties the draft's text (a command in it was carried out). */
    clearText: (id: string | undefined) => update(id, () => EMPTY_DRAFT),
    /** Empties the draft: its text and its attachments (it was sent). */
    clear: (id: string | undefined) => {
      update(id, () => EMPTY_DRAFT);
      setAttachments(id, NO_ATTACHMENTS);
    },
    /** Puts `message` in the composer; the draft waits until the edit ends. */
    startEdit(id: string | undefined, message: Message) {
      editing.set((current) => ({ message, savedDraft: current?.savedDraft ?? get(id) }));
      update(id, () => fromText(message.message));
    },
    /** Ends an edit (saved or not) and gives the draft back. */
    endEdit(id: string | undefined) {
      const current = editing.get();
      if (!current) return;
      update(id, () => current.savedDraft);
      editing.set(null);
    },
  };
}
