// What of the query cache is kept between runs, and what the client learns again from it
// when it is restored (the names of contacts, which it otherwise learns from fetches).
import type { Query, QueryClient } from "@tanstack/react-query";
import type { Message, Page } from "../../api/schema.ts";
import type { Session } from "../screen/session.ts";
import { keys } from "./query-keys.ts";

const notKept = [keys.messages.inbox(), keys.conversations.mutedIds()].map((k) =>
  JSON.stringify(k),
);

/**
 * Lists, conversations, histories and previews that loaded. Not the inbox: restored, it
 * would count as already seen what arrived while parley was closed, or ring for it all
 * at once; it is fetched fresh and its first answer is history.
 */
export function shouldKeepQuery(query: Query): boolean {
  return query.state.status === "success" && !notKept.includes(JSON.stringify(query.queryKey));
}

function messagesIn(data: unknown): Message[] {
  if (typeof data !== "object" || data === null) return [];
  if ("pages" in data && Array.isArray(data.pages)) return data.pages.flatMap(messagesIn);
  if ("data" in data && Array.isArray(data.data)) {
    return (data as Page<Message>).data.filter((m) => typeof m === "object" && m && "contact" in m);
  }
  return [];
}

/** Learns the contacts of every restored message, so names show before the first fetch. */
export function learnFromCache(queryClient: QueryClient, session: Session): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: keys.messages.all() })) {
    session.contacts.learn(messagesIn(query.state.data));
  }
}
