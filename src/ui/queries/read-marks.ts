// Retrieving a conversation marks it opened on the server (its `last_opened_at`, and the
// others' messages read: contract "Lifecycle details"). The open one is retrieved again as
// news from others arrives in it, but at most once a second: during a burst, once per
// event batch was a request, a write on the server and two events back every few frames.
import type { QueryClient } from "@tanstack/react-query";
import { keys } from "./query-keys.ts";
import { throttlePerClient } from "./throttle.ts";

const READ_GAP_MS = 1000;
const throttled = throttlePerClient(READ_GAP_MS);

/** Retrieves the open conversation `id` now, or once a second has passed since the last. */
export function markReadSoon(queryClient: QueryClient, id: string): void {
  throttled(queryClient, id, () => {
    void queryClient
      .refetchQueries(
        { queryKey: keys.conversations.detail(id), exact: true, type: "active" },
        { cancelRefetch: false },
      )
      .catch(() => {});
  });
}
