// The composer's completion list for the open conversation: the token at the cursor, its
// choices (a name: the conversation's members first, then everyone else known; an emoji),
// which one is marked (the one Tab or Enter takes), and whether Esc closed the list.
import { useMemo, useState } from "react";
import type { Conversation, Message } from "../../api/schema.ts";
import { usePeopleSearch } from "../queries/contacts.ts";
import { useContacts, useMe } from "../screen/session-context.tsx";
import {
  applyCompletion,
  type Candidate,
  type CompleteEmoji,
  type CompletionToken,
  completeName,
  completionToken,
} from "./completion.ts";
import type { Drafts } from "./drafts.ts";
import type { EditorState } from "./editor.ts";
import { useDraftValue } from "./use-drafts.ts";

export type Completion = {
  token: CompletionToken;
  candidates: Candidate[];
  /** The marked choice: what Tab or Enter takes. */
  index: number;
  /** Whether the list shows (there is a choice, and Esc has not closed it). */
  shown: boolean;
  /** ↓ (1) or ↑ (-1) in the list, round. */
  move(step: 1 | -1): void;
  close(): void;
  /** Shows the list again after Esc (Tab on the same word). */
  reopen(): void;
  /** The draft with the marked choice in place. */
  take(draft: EditorState): EditorState;
};

/** Who is in the conversation as far as the client can tell: the other person, the senders. */
function membersOf(
  conversation: Conversation | undefined,
  messages: readonly Message[],
  contactName: (id: string) => string | undefined,
): string[] {
  const names: string[] = [];
  const other = conversation?.contact_id ? contactName(conversation.contact_id) : undefined;
  if (other) names.push(other);
  for (let i = messages.length - 1; i >= 0; i--) names.push(messages[i]!.contact.username);
  return [...new Set(names)];
}

/**
 * The completion for the open conversation's draft. Its caller re-renders when the token
 * at the cursor changes, not at every key.
 */
export function useCompletion(
  conversation: Conversation | undefined,
  drafts: Drafts,
  messages: readonly Message[],
  completeEmoji: CompleteEmoji,
): Completion | undefined {
  const me = useMe();
  const contacts = useContacts();
  const tokenText = useDraftValue(drafts, conversation?.id, (draft) =>
    JSON.stringify(completionToken(draft) ?? null),
  );
  const token = useMemo(
    () => (JSON.parse(tokenText) as CompletionToken | null) ?? undefined,
    [tokenText],
  );
  const tokenKey = token ? `${conversation?.id}:${tokenText}` : "";
  const people = usePeopleSearch(token?.query ?? "", token?.kind === "name");
  // Marked choice and Esc, for the token they were made on: a new token starts afresh.
  const [marked, setMarked] = useState({ key: "", index: 0 });
  const [closedAt, setClosedAt] = useState("");
  const members = useMemo(
    () => membersOf(conversation, messages, (id) => contacts.get(id)?.username),
    [conversation, messages, contacts],
  );
  const candidates = useMemo(() => {
    if (!token) return [];
    if (token.kind === "emoji") return completeEmoji(token.query);
    const others = [
      ...[...contacts.values()].map((c) => c.username),
      ...people.people.map((p) => p.username),
    ];
    return completeName(token.query, members, others, me);
  }, [token, members, contacts, people.people, me, completeEmoji]);
  if (!token) return undefined;
  // A name typed out whole is not offered to itself.
  const done = candidates.length === 1 && candidates[0]!.text === `@${token.query}`;
  const index = marked.key === tokenKey ? Math.min(marked.index, candidates.length - 1) : 0;
  return {
    token,
    candidates,
    index: Math.max(0, index),
    shown: candidates.length > 0 && closedAt !== tokenKey && !done,
    move(step) {
      const n = candidates.length;
      if (n > 0) setMarked({ key: tokenKey, index: (index + step + n) % n });
    },
    close: () => setClosedAt(tokenKey),
    reopen: () => setClosedAt(""),
    take: (current) => {
      const choice = candidates[Math.max(0, index)];
      return choice ? applyCompletion(current, token, choice) : current;
    },
  };
}
