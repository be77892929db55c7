// Follows the server's event stream for as long as the screen is up (each `parley ssh`
// session its own): events go into the cache a frame's batch at a time (event-batches.ts,
// events.ts), the stream's state into the
// session's live mode (live.ts), which the polls are paced by. Each time the stream
// (re)opens, what is on screen is fetched once (conditionally: mostly 304s), for what
// happened before it was open; a `reset` does the same for everything.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { ServerEvent } from "../../api/events.ts";
import { useMe, useSession } from "../screen/session-context.tsx";
import { eventBatches } from "./event-batches.ts";
import { applyEvents } from "./events.ts";
import { liveMode } from "./live.ts";

export function useServerEvents(): void {
  const { api } = useSession();
  const queryClient = useQueryClient();
  const me = useRef<string | undefined>(undefined);
  me.current = useMe();
  useEffect(() => {
    const mode = liveMode(queryClient);
    const batches = eventBatches<ServerEvent>(
      (events) => applyEvents(queryClient, events, me.current),
      () => applyEvents(queryClient, [{ type: "reset" }], me.current),
    );
    const { stop } = api.events.follow({
      onState: (state) => {
        const opened = state === "live" && mode.get() !== "live";
        mode.set(state);
        if (opened) {
          void queryClient.refetchQueries({ type: "active" }, { cancelRefetch: false });
        }
      },
      onEvent: batches.push,
    });
    return () => {
      stop();
      batches.stop();
      mode.set("connecting");
    };
  }, [api, queryClient]);
}
