// Contacts the client has seen: the contract has no contact endpoints, so names are learned
// from the `contact` object of every message that passes through the query layer.
// One book per session (see StatusLine for why not per process). Below it, who the
// new-conversation prompt offers and what typed text there means: the people a parley
// server lists (queries/contacts.ts) with the contacts seen.
import type { Contact, Message, Person } from "../../api/schema.ts";
import { fuzzyFilter } from "../text/fuzzy.ts";
import { createStore, type Store } from "./store.ts";

export type ContactBook = Store<ReadonlyMap<string, Contact>> & {
  learn(messages: readonly Message[]): void;
  /**
   * The names of people the server listed (GET /v1/contacts), for those not seen in a
   * message yet: a conversation just started with one is called by their name.
   */
  know(people: readonly Person[]): void;
};

export function createContactBook(): ContactBook {
  const store = createStore<ReadonlyMap<string, Contact>>(new Map());
  return {
    ...store,
    learn(messages) {
      const known = store.get();
      let next: Map<string, Contact> | null = null;
      for (const { contact } of messages) {
        const prev = (next ?? known).get(contact.id);
        if (prev && prev.username === contact.username) continue;
        next ??= new Map(known);
        next.set(contact.id, contact);
      }
      if (next) store.set(next);
    },
    know(people) {
      const known = store.get();
      const fresh = people.filter((p) => !known.has(p.id));
      if (fresh.length === 0) return;
      const next = new Map(known);
      for (const { id, username } of fresh) {
        next.set(id, {
          id,
          username,
          phone_number: null,
          avatar_url: null,
          last_active_at: null,
          created_at: null,
        });
      }
      store.set(next);
    },
  };
}

/** How many people the new-conversation prompt shows. */
export const SUGGESTED = 5;

/**
 * Who the new-conversation prompt offers for `typed`: the server's people and the contacts
 * seen in messages, each once, you left out, best match of their user names first.
 */
export function suggestPeople(
  typed: string,
  fromServer: readonly Person[],
  seen: Iterable<Contact>,
  me: string | undefined,
): Person[] {
  const byId = new Map<string, Person>();
  for (const person of fromServer) byId.set(person.id, person);
  for (const { id, username } of seen) if (!byId.has(id)) byId.set(id, { id, username });
  const others = [...byId.values()].filter((p) => p.username !== me || me === undefined);
  return fuzzyFilter(others, typed.trim(), personName).slice(0, SUGGESTED);
}

/** A person's name as shown: the user name, else (a foreign server may leave it out) the id. */
export const personName = (p: Person) => p.username || p.id;

/** What Enter on typed text starts: a conversation with this id, or nobody of that name. */
export type Typed = { id: string } | { unknown: string };

/**
 * The conversation typed text means. A group id (`grp_…`) is a group; a name that is one
 * person's user name (case aside) is that person; a contact id someone known has is theirs.
 * Else, on a server that lists people, a contact id (`ct_…`) goes to the server as it is
 * and anything else is nobody; on one that does not, the text goes as a contact id, as
 * before there was completion.
 */
export function typedTarget(
  typed: string,
  people: readonly Person[],
  serverListsPeople: boolean,
): Typed {
  const text = typed.trim();
  if (text.startsWith("grp_")) return { id: text };
  const named = new Set(
    people.filter((p) => p.username.toLowerCase() === text.toLowerCase()).map((p) => p.id),
  );
  if (named.size === 1) return { id: [...named][0]! };
  if (people.some((p) => p.id === text)) return { id: text };
  if (!serverListsPeople || text.startsWith("ct_")) return { id: text };
  // "#team" names a group, whose conversation the prompt asks for (useFindGroup).
  return { unknown: text };
}
