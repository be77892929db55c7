// The drafts (drafts.ts) as the screen reads them: each hook re-renders its caller only
// when what it reads changes.
import { useSyncExternalStore } from "react";
import { useStore } from "../screen/observable.ts";
import { useSession } from "../screen/session-context.tsx";
import type { DraftAttachment } from "./commands.ts";
import type { Drafts } from "./drafts.ts";
import type { EditorState } from "./editor.ts";

/** The session's drafts (kept beyond the screen: saved to disk, and across a resize). */
export function useDrafts(): Drafts {
  return useSession().drafts;
}

/** The draft of one conversation: for the composer, which re-renders as it changes. */
export function useDraft(drafts: Drafts, id: string | undefined): EditorState {
  return useSyncExternalStore(
    drafts.texts.subscribe,
    () => drafts.get(id),
    () => drafts.get(id),
  );
}

/** A value derived from one draft; the caller re-renders only when the value changes. */
export function useDraftValue<T>(
  drafts: Drafts,
  id: string | undefined,
  select: (draft: EditorState) => T,
): T {
  const read = () => select(drafts.get(id));
  return useSyncExternalStore(drafts.texts.subscribe, read, read);
}

/** The attachments of one conversation's draft. */
export function useDraftAttachments(
  drafts: Drafts,
  id: string | undefined,
): readonly DraftAttachment[] {
  const read = () => drafts.attachmentsOf(id);
  return useSyncExternalStore(drafts.attachments.subscribe, read, read);
}

const NONE: readonly DraftAttachment[] = [];

/**
 * The draft's attachments as the composer shows them: none while an edit borrows the
 * composer (they wait aside with the draft's text).
 */
export function useShownAttachments(
  drafts: Drafts,
  id: string | undefined,
): readonly DraftAttachment[] {
  const editing = useStore(drafts.editing) !== null;
  const attached = useDraftAttachments(drafts, id);
  return editing ? NONE : attached;
}

/** Rows the composer takes for the open conversation's draft and its attachments. */
export function useComposerRows(
  drafts: Drafts,
  id: string | undefined,
  width: number,
  height: (draft: EditorState, width: number, attachments: number) => number,
): number {
  const attached = useShownAttachments(drafts, id).length;
  return useDraftValue(drafts, id, (draft) => height(draft, width, attached));
}
