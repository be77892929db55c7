// A finished client lets go of its cache for good: no query or mutation of it is left with
// a gc timer (5 minutes), which would hold it, its client and the session's whole state.
// In `parley ssh` that was every session that had left in the last 5 minutes. The late
// events that used to re-arm those timers are played in the order they come at the end
// of a session: the cache is released, then React removes the observers (its passive
// effects, after the unmount), then a fetch in flight settles.

import {
  environmentManager,
  MutationObserver,
  QueryClient,
  QueryObserver,
  timeoutManager,
} from "@tanstack/react-query";
import { afterAll, describe, expect, it } from "vitest";
import { releaseCache } from "../../src/client/mount.tsx";
import { until } from "../wait.ts";

/** TanStack's timers that are set and have neither fired nor been cleared. */
const live = new Set<ReturnType<typeof setTimeout>>();
timeoutManager.setTimeoutProvider({
  setTimeout(callback, ms) {
    const id = setTimeout(() => {
      live.delete(id);
      callback();
    }, ms);
    live.add(id);
    return id;
  },
  clearTimeout(id) {
    if (id === undefined) return;
    live.delete(id);
    clearTimeout(id);
  },
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (id) => clearInterval(id),
});
// As src/client/session.ts has it: a long-lived client, whose entries expire (5 minutes).
environmentManager.setIsServer(() => false);

afterAll(() => {
  for (const id of live) clearTimeout(id);
});

/** A session's last moments against `release`: how many timers are left afterwards. */
async function timersLeftBy(release: (client: QueryClient) => void): Promise<number> {
  for (const id of live) clearTimeout(id);
  live.clear();
  const client = new QueryClient();
  let answer: ((value: string) => void) | undefined;
  const inFlight = new QueryObserver(client, {
    queryKey: ["in flight"],
    queryFn: () =>
      new Promise<string>((resolve) => {
        answer = resolve;
      }),
  });
  const settled = new QueryObserver(client, {
    queryKey: ["settled"],
    queryFn: async () => "here",
    staleTime: Number.POSITIVE_INFINITY,
  });
  const unsubscribe = [inFlight.subscribe(() => {}), settled.subscribe(() => {})];
  const sent = new MutationObserver(client, { mutationFn: async (text: string) => text });
  await sent.mutate("sent");
  await until(() => answer && settled.getCurrentResult().data === "here", "both queries");

  release(client);
  for (const stop of unsubscribe) stop();
  sent.reset();
  answer!("late");
  await until(() => client.isFetching() === 0, "the fetch settled");
  // The fetch's own clean-up comes a few microtasks after it settles.
  await new Promise((resolve) => setImmediate(resolve));
  return live.size;
}

describe("releasing a finished client's cache", () => {
  it("leaves no gc timer behind, where clear() alone left some", async () => {
    expect(await timersLeftBy((client) => client.clear())).toBeGreaterThan(0);
    expect(await timersLeftBy(releaseCache)).toBe(0);
  });
});
