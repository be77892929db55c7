// The start screen's data, asked for before the UI mounts when nothing was kept from the
// last run (src/client/run.ts waits a little for it): a server that answers quickly has
// its answers in the first frame, which then shows the conversations, not "loading…".
// (Mounted, the lists ask again, as they do after any start: a few small requests.)
import type { QueryClient } from "@tanstack/react-query";
import type { Session } from "../screen/session.ts";
import { conversationListOptions, PINNED_FIRST, UNPINNED } from "./conversations.ts";
import { inboxOptions } from "./previews.ts";

/** Settles when the "All" list's first pages and the inbox are in, or have failed. */
export async function prefetchStartScreen(
  queryClient: QueryClient,
  session: Session,
): Promise<void> {
  await Promise.all([
    queryClient.prefetchInfiniteQuery(conversationListOptions(session, PINNED_FIRST)),
    queryClient.prefetchInfiniteQuery(conversationListOptions(session, UNPINNED)),
    queryClient.prefetchQuery(inboxOptions(session)),
  ]);
}
