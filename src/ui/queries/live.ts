// Whether news comes from the server's event stream ("live") or from polling: one state per
// session (per query client: each `parley ssh` session has its own). events.ts sets it,
// polling.ts paces its timers by it, the help screen says it.
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import type { EventsState } from "../../api/client.ts";
import { createStore, type Store, useStore } from "../screen/observable.ts";
import { DEFAULT_POLL_PACE } from "../screen/session.ts";
import { useSession } from "../screen/session-context.tsx";

const modes = new WeakMap<QueryClient, Store<EventsState>>();

/** The session's stream state; "connecting" until the stream has been asked for. */
export function liveMode(queryClient: QueryClient): Store<EventsState> {
  let mode = modes.get(queryClient);
  if (!mode) {
    mode = createStore<EventsState>("connecting");
    modes.set(queryClient, mode);
  }
  return mode;
}

export function useIsLive(): boolean {
  return useStore(liveMode(useQueryClient())) === "live";
}

/** How news arrives, in words: "live", or "polling every 2 s". */
export function useNewsMode(): string {
  const live = useIsLive();
  const { openMs } = useSession().pollPace ?? DEFAULT_POLL_PACE;
  return live ? "live" : `polling every ${Number((openMs / 1000).toFixed(1))} s`;
}
