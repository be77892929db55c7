// Where everything goes on a screen of a given size. Pure: the sizes in, the sizes out.

/** The header's one row is above the body (sidebar and main column). */
export const BODY_TOP = 1;

export type ScreenColumns = { sidebarWidth: number; mainWidth: number; bodyHeight: number };

/**
 * The sidebar takes about a third of the width (26 to 40 columns), less on a narrow
 * terminal (20 of 60), none when hidden; header and status bar a row each.
 */
export function screenColumns(columns: number, rows: number, sidebarShown = true): ScreenColumns {
  const sidebarWidth = !sidebarShown
    ? 0
    : columns < 80
      ? Math.max(20, Math.round(columns / 3))
      : Math.max(26, Math.min(40, Math.round(columns * 0.32)));
  return { sidebarWidth, mainWidth: columns - sidebarWidth, bodyHeight: rows - 2 };
}

/** Rows below the message pane that are taken by the composer, the picker or a prompt. */
export type BelowPane = {
  composer: number;
  picker: boolean;
  newConversation: boolean;
  attachPrompt?: boolean;
  /** Rows of the who-reacted list, when it is open. */
  reactors?: number;
};

export const PICKER_ROWS = 3;
export const NEW_CONVERSATION_ROWS = 9;
export const ATTACH_PROMPT_ROWS = 4;

/** The message pane gets what is left, never under 4 rows. */
export function messagePaneHeight(bodyHeight: number, below: BelowPane): number {
  const taken =
    below.composer +
    (below.picker ? PICKER_ROWS : 0) +
    (below.newConversation ? NEW_CONVERSATION_ROWS : 0) +
    (below.attachPrompt ? ATTACH_PROMPT_ROWS : 0) +
    (below.reactors ?? 0);
  return Math.max(4, bodyHeight - taken);
}
