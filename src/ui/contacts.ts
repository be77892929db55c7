// Contacts the client has seen: there are no contact endpoints, so names are learned
// from the `contact` object of every message that passes through the query layer.
import type { Contact, Message } from "../api/schema.ts";
import { createStore, useStore } from "./store.ts";

export const contactStore = createStore<ReadonlyMap<string, Contact>>(new Map());

export function learnContacts(messages: readonly Message[]): void {
  const known = contactStore.get();
  let next: Map<string, Contact> | null = null;
  for (const { contact } of messages) {
    const prev = (next ?? known).get(contact.id);
    if (prev && prev.username === contact.username) continue;
    next ??= new Map(known);
    next.set(contact.id, contact);
  }
  if (next) contactStore.set(next);
}

export const useContacts = () => useStore(contactStore);
