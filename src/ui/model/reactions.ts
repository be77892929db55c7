// Reactions as the contract has them: a list of `{ name: [user names] }`, where a PUT of a
// name's list replaces it. Who reacted with what, and what toggling yours sends.
import type { Message } from "../../api/schema.ts";

/** The user names that reacted to `message` with `name`. */
export function reactorsOf(message: Message, name: string): string[] {
  return message.reactions.find((r) => name in r)?.[name] ?? [];
}

/** Whether `me` is among `users` (nobody is "me" before parley knows who you are). */
export function includesMe(users: readonly string[], me: string | undefined): boolean {
  return me !== undefined && users.includes(me);
}

/** The names of the reactions that are yours on `message`. */
export function myReactions(message: Message, me: string | undefined): Set<string> {
  const names = new Set<string>();
  for (const reaction of message.reactions) {
    for (const [name, users] of Object.entries(reaction))
      if (includesMe(users, me)) names.add(name);
  }
  return names;
}

/** Your reaction toggled: the full user list to send for that name (contract: it replaces). */
export function toggledReactors(message: Message, name: string, me: string): string[] {
  const current = reactorsOf(message, name);
  return includesMe(current, me) ? current.filter((u) => u !== me) : [...current, me];
}

/** Applies a reaction name's new user list the way the server does. */
export function withReactors(message: Message, name: string, users: string[]): Message {
  const exists = message.reactions.some((r) => name in r);
  let reactions = exists
    ? message.reactions.map((r) => (name in r ? { [name]: users } : r))
    : [...message.reactions, { [name]: users }];
  reactions = reactions.filter((r) => (r[name] ?? [""]).length > 0);
  return { ...message, reactions };
}
