// Contacts the client has seen: there are no contact endpoints, so names are learned
// from the `contact` object of every message that passes through the query layer.
// One book per session (see StatusLine for why not per process).
import type { Contact, Message } from "../../api/schema.ts";
import { createStore, type Store } from "../screen/observable.ts";

export type ContactBook = Store<ReadonlyMap<string, Contact>> & {
  learn(messages: readonly Message[]): void;
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
  };
}
