// Polling, where the server has no event stream or while it is down (use-server-events.ts):
// while the stream is up ("live", live.ts), each polled query is fetched only about once a
// minute (conditionally: a 304 when nothing changed), in case an event was lost; the events
// bring the news. parley runs its own timer per polled
// query instead of TanStack's refetchInterval: TanStack restarts that timer whenever the
// query's data changes, and other queries write into the conversation list (the open
// conversation's 2 s poll does), so the list's 5 s timer was reset before it ever fired
// and news elsewhere never arrived. Here each wait is drawn when it starts and nothing
// but the end of the wait (or the query going away) touches it.
//
// While the server fails, polls back off (api/retry.ts: doubling, up to 8 s, jittered so
// that clients started together do not poll in step), and the first success
// anywhere refetches everything on screen at once: within 10 s of the server's return,
// every list, the inbox and the open conversation follow news again.
import { hashKey, type Query, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect, useEffectEvent, useRef } from "react";
import { backoffDelay } from "../../api/retry.ts";
import { useStore } from "../screen/observable.ts";
import { DEFAULT_POLL_PACE, type PollPace } from "../screen/session.ts";
import { useSession } from "../screen/session-context.tsx";
import { useIsLive } from "./live.ts";

/** The longest wait between polls while the server fails (and between outbox tries). */
export const MAX_BACKOFF_MS = 8_000;

/** With the event stream up: how often what is on screen is fetched again all the same. */
export const LIVE_REFRESH_MS = 60_000;

/**
 * Polls in a row that bring nothing new before a query polls at its quiet pace (the open
 * conversation: 4 s instead of 2 s after 20 quiet seconds); the first news brings back its
 * pace. An idle minute costs half the requests, and a conversation going on is polled as
 * fast as ever.
 */
export const QUIET_POLLS = 10;

/** Within this of the event stream dropping, what is polled is fetched. */
const DROPPED_WITHIN_MS = 1000;

// TanStack counts errors over a query's life; the backoff wants the failures since the
// last success, so remember the count at each success.
const errorsAtLastSuccess = new WeakMap<object, number>();

// biome-ignore lint/suspicious/noExplicitAny: any query shape polls the same way
export function consecutiveFailures(query: Query<any, any, any, any>): number {
  const { status, errorUpdateCount } = query.state;
  if (status !== "error") {
    errorsAtLastSuccess.set(query, errorUpdateCount);
    return 0;
  }
  return errorUpdateCount - (errorsAtLastSuccess.get(query) ?? 0);
}

/** The session's poll pace: 2 s for the open conversation, 10 s for lists, unless set. */
export function usePollPace(): PollPace {
  return useSession().pollPace ?? DEFAULT_POLL_PACE;
}

export type PollOptions = {
  /** False for what is not on screen (the inbox): no refresh at all while live. */
  onScreen?: boolean;
  /** The pace once QUIET_POLLS polls in a row brought nothing new (polling only). */
  quietMs?: number;
  /** Asked at each turn: while it holds, the turn passes without a request. */
  skip?: () => boolean;
};

/**
 * Refetches one query every `baseMs` (jittered, backed off while it fails) for as long
 * as `enabled` holds, or every LIVE_REFRESH_MS while the event stream is up. Renders and
 * writes to the query do not reset the wait.
 */
export function usePoll(
  queryKey: QueryKey,
  pollMs: number,
  enabled: boolean,
  { onScreen = true, quietMs = pollMs, skip }: PollOptions = {},
): void {
  const queryClient = useQueryClient();
  const live = useIsLive();
  const baseMs = live ? LIVE_REFRESH_MS : pollMs;
  const restMs = live ? LIVE_REFRESH_MS : quietMs;
  enabled &&= onScreen || !live;
  // Asked at each poll, of the latest render's `skip`.
  const skipNow = useEffectEvent(() => skip?.() ?? false);
  const hash = hashKey(queryKey);
  const wasLive = useRef(live);
  useEffect(() => {
    // The stream just dropped (the server gone, or a network change): polled at once, within
    // a second (clients that lost one server together do not ask in step), so what came
    // meanwhile shows, or the outage does, without waiting out a whole pace.
    const dropped = wasLive.current && !live;
    wasLive.current = live;
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    /** Polls in a row whose answer changed nothing (the same data, kept by TanStack). */
    let quiet = 0;
    // By its hash (the default one: no query here sets queryKeyHashFn), not by its key: a
    // key filter hashes the key once for every query in the cache, some 15 ms a minute of
    // an idle client's polling CPU.
    const find = () => queryClient.getQueryCache().get(hash);
    const thisQuery = (query: Query) => query.queryHash === hash;
    const schedule = () => {
      const query = find();
      const pace = quiet >= QUIET_POLLS ? restMs : baseMs;
      timer = setTimeout(
        tick,
        backoffDelay(pace, query ? consecutiveFailures(query) : 0, MAX_BACKOFF_MS),
      );
    };
    const tick = async () => {
      if (skipNow()) return void schedule();
      const before = find()?.state.data;
      // An answer still on its way (a slow server) is waited for, never cancelled.
      await queryClient
        .refetchQueries({ predicate: thisQuery }, { cancelRefetch: false })
        .catch(() => {});
      quiet = find()?.state.data === before ? quiet + 1 : 0;
      if (!stopped) schedule();
    };
    if (dropped) timer = setTimeout(tick, Math.random() * DROPPED_WITHIN_MS);
    else schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [queryClient, hash, baseMs, restMs, enabled, live]);
}

/** Everything on screen, now: Ctrl+R, and the way back after an outage. */
export function useRefreshAll(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.refetchQueries({ type: "active" }, { cancelRefetch: false });
}

/**
 * When the server answers again after an outage, every query on screen is fetched at
 * once instead of each waiting out its own back-off (one could otherwise stay behind,
 * showing old news under a status bar that says online).
 */
export function useRecoverAfterOutage(): void {
  const { status } = useSession();
  const connection = useStore(status.connection);
  const refreshAll = useRefreshAll();
  const wasOffline = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of state matters
  useEffect(() => {
    if (connection.state === "offline" || connection.state === "unreadable")
      wasOffline.current = true;
    else if (connection.state === "online" && wasOffline.current) {
      wasOffline.current = false;
      void refreshAll();
    }
  }, [connection.state]);
}
