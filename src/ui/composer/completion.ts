// Tab completion in the composer, pure: the `@name` or `:emoji` being typed at the cursor,
// what it may complete to, and the draft with the chosen one in its place.
import type { EditorState } from "./editor.ts";

/** The word being completed: `@al` (a name) or `:ta` (an emoji's short code). */
export type CompletionToken = {
  kind: "name" | "emoji";
  /** Where the `@` or `:` is in the draft. */
  start: number;
  /** What follows it, up to the cursor. */
  query: string;
};

/** One choice: what the list shows, and what goes into the draft. */
export type Candidate = { shown: string; text: string };

/** How many choices the list offers at most. */
export const MAX_CANDIDATES = 8;

// A name is letters, digits and . _ - (user names; the contract's are narrower); an emoji
// short code the contract's reaction names (a-z 0-9 _ + -), at least two of them after the
// colon so that "10:30" or ":)" never open the list.
const NAME_TOKEN = /(?:^|[\s(])@([\p{L}\p{N}._-]{0,64})$/u;
const EMOJI_TOKEN = /(?:^|[\s(]):([a-z0-9_+-]{2,32})$/i;
/** How far back from the cursor a token is looked for: longer than any token can be. */
const LOOK_BACK = 80;

/** The token that ends at the cursor, if one is being typed there. */
export function completionToken(draft: EditorState): CompletionToken | undefined {
  // Asked at every key: only the end of a long draft is read. A `^` at the cut cannot
  // match, the tokens being shorter than what is read.
  const before = draft.value.slice(Math.max(0, draft.cursor - LOOK_BACK), draft.cursor);
  // Only at the end of a word: the next character is the end, or a space.
  const after = draft.value[draft.cursor];
  if (after !== undefined && !/\s/.test(after)) return undefined;
  const name = NAME_TOKEN.exec(before);
  if (name) return { kind: "name", start: draft.cursor - name[1]!.length - 1, query: name[1]! };
  const emoji = EMOJI_TOKEN.exec(before);
  if (emoji) {
    return { kind: "emoji", start: draft.cursor - emoji[1]!.length - 1, query: emoji[1]! };
  }
  return undefined;
}

/**
 * Names for `@query`, each once, you left out: the conversation's members whose names
 * start with it, then others known whose names do; then those that only contain it.
 * Upper and lower case are the same.
 */
export function completeName(
  query: string,
  members: readonly string[],
  others: readonly string[],
  me: string | undefined,
): Candidate[] {
  const q = query.toLowerCase();
  const pool = [...new Set([...members, ...others])].filter(
    (name) => name !== "" && name.toLowerCase() !== me?.toLowerCase(),
  );
  const starts = pool.filter((name) => name.toLowerCase().startsWith(q));
  const contains =
    q === "" ? [] : pool.filter((n) => !starts.includes(n) && n.toLowerCase().includes(q));
  return [...starts, ...contains]
    .slice(0, MAX_CANDIDATES)
    .map((name) => ({ shown: `@${name}`, text: `@${name}` }));
}

/** Emoji for `:query` (the messages' emoji names: reaction-names.ts completeEmoji). */
export type CompleteEmoji = (query: string) => Candidate[];

/** The draft with the token replaced by `choice`, and a space after it. */
export function applyCompletion(
  draft: EditorState,
  token: CompletionToken,
  choice: Candidate,
): EditorState {
  const before = draft.value.slice(0, token.start);
  const after = draft.value.slice(draft.cursor);
  const inserted = after.startsWith(" ") ? choice.text : `${choice.text} `;
  const value = `${before}${inserted}${after}`;
  const cursor = before.length + inserted.length + (after.startsWith(" ") ? 1 : 0);
  return { value, cursor };
}
