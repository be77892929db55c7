// One member's reaction changes to one message, for both stores: worked out in memory from
// the message's reactions read once, so an update costs one write per name sent (a lookup of
// the next position per name made 12,000 names quadratic).
import { MAX_REACTION_NAMES } from "../../api/schema.ts";
import { withReactor } from "./assemble.ts";

export type StoredReaction = { name: string; position: number; usernames: string[] };

export type ReactionWrites = {
  /** Names whose user list is new or changed, with the position each keeps or takes. */
  set: StoredReaction[];
  /** Names left without anyone. */
  remove: string[];
};

/** More distinct names on one message than MAX_REACTION_NAMES: a 400 naming `reactions`. */
export class ReactionLimitError extends Error {
  constructor() {
    super(`A message holds at most ${MAX_REACTION_NAMES} different reactions.`);
  }
}

/**
 * What `reactor` turning each name on or off writes. Adding a name the message does not have
 * yet, past MAX_REACTION_NAMES, throws ReactionLimitError (a message that holds more from
 * before the limit keeps them, and its reactions can still be taken off).
 */
export function reactionWrites(
  current: readonly StoredReaction[],
  changes: readonly (readonly [name: string, on: boolean])[],
  reactor: string,
): ReactionWrites {
  const byName = new Map(current.map((r) => [r.name, r]));
  let last = current.reduce((max, r) => Math.max(max, r.position), 0);
  const set = new Map<string, StoredReaction>();
  const remove = new Set<string>();
  let added = 0;
  for (const [name, on] of changes) {
    const now = byName.get(name);
    const next = withReactor(now?.usernames ?? [], reactor, on);
    if (!next) continue;
    if (next.length === 0) {
      byName.delete(name);
      set.delete(name);
      remove.add(name);
      continue;
    }
    if (!now) added++;
    const reaction = { name, position: now?.position ?? ++last, usernames: next };
    byName.set(name, reaction);
    set.set(name, reaction);
    remove.delete(name);
  }
  if (added > 0 && byName.size > MAX_REACTION_NAMES) throw new ReactionLimitError();
  return { set: [...set.values()], remove: [...remove] };
}
