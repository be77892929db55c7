// Reaction names as the contract allows them (1 to 32 of a-z 0-9 _ + -), and the picker's
// completion of a typed name: from the names already used in the conversation, the quick
// row, and every short code node-emoji knows.
import { search } from "node-emoji";
import { type Message, REACTION_NAME } from "../../api/schema.ts";
import { type Candidate, MAX_CANDIDATES } from "../composer/completion.ts";
import { COMMON_REACTIONS, emojiFor } from "./emoji.ts";

export function isReactionName(name: string): boolean {
  return REACTION_NAME.test(name);
}

/** Whether `ch` may be typed into a reaction name (upper case is taken as lower). */
export function reactionNameChar(ch: string): string | undefined {
  const lower = ch.toLowerCase();
  return /^[a-z0-9_+-]$/.test(lower) ? lower : undefined;
}

let known: string[] | undefined;
/** Every name node-emoji knows, valid as a reaction name, once. */
function knownNames(): string[] {
  known ??= [...new Set(search("").map((e) => e.name))].filter(isReactionName).sort();
  return known;
}

/** The reaction names used on these messages, most used first. */
export function usedReactionNames(messages: readonly Message[]): string[] {
  const counts = new Map<string, number>();
  for (const message of messages) {
    for (const reaction of message.reactions) {
      for (const [name, users] of Object.entries(reaction)) {
        if (isReactionName(name)) counts.set(name, (counts.get(name) ?? 0) + users.length);
      }
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([name]) => name);
}

/**
 * What `query` may complete to, best first: names used here, then the quick row's, then
 * every known one; those starting with the query before those containing it. The typed
 * name itself comes last when it is valid and not among them (an unknown name is allowed).
 */
export function completeReaction(query: string, used: readonly string[], limit = 20): string[] {
  const pool = [...new Set([...used, ...COMMON_REACTIONS, ...knownNames()])];
  const starts = pool.filter((name) => name.startsWith(query));
  const contains =
    query === "" ? [] : pool.filter((n) => !n.startsWith(query) && n.includes(query));
  const found = [...starts, ...contains].slice(0, limit);
  if (isReactionName(query) && !found.includes(query)) found.push(query);
  return found;
}

/**
 * The composer's `:emoji` completion: short codes that start with `query`, then those
 * containing it, each with its emoji, which is what goes into the text.
 */
export function completeEmoji(query: string): Candidate[] {
  return completeReaction(query.toLowerCase(), [], MAX_CANDIDATES * 2)
    .map((name) => ({ name, emoji: emojiFor(name) }))
    .filter(({ emoji }) => !emoji.startsWith(":"))
    .slice(0, MAX_CANDIDATES)
    .map(({ name, emoji }) => ({ shown: `${emoji} :${name}:`, text: emoji }));
}
