// Retrieving a conversation marks it opened on the server (its `last_opened_at`, and the
// others' messages read: contract "Lifecycle details"). The open one is retrieved again as
// news from others arrives in it, but at most once a second: during a burst, once per
// event batch was a request, a write on the server and two events back every few frames.
import type { QueryClient } from "@tanstack/react-query";
import { keys } from "./query-keys.ts";

const READ_GAP_MS = 1000;

type Marking = { last: number; timer?: ReturnType<typeof setTimeout> };
const marking = new WeakMap<QueryClient, Map<string, Marking>>();

/** Retrieves the open conversation `id` now, or once a second has passed since the last. */
export function markReadSoon(queryClient: QueryClient, id: string): void {
  const byId = marking.get(queryClient) ?? new Map<string, Marking>();
  marking.set(queryClient, byId);
  const state = byId.get(id) ?? { last: 0 };
  byId.set(id, state);
  if (state.timer) return;
  const run = () => {
    state.timer = undefined;
    state.last = Date.now();
    void queryClient
      .refetchQueries(
        { queryKey: keys.conversations.detail(id), exact: true, type: "active" },
        { cancelRefetch: false },
      )
      .catch(() => {});
  };
  const wait = state.last + READ_GAP_MS - Date.now();
  if (wait <= 0) {
    run();
    return;
  }
  state.timer = setTimeout(run, wait);
  state.timer.unref?.();
}
