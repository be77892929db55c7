// At most one run a gap, per query client and key: the first at once, the rest of a
// burst folded into one run when the gap has passed.
import type { QueryClient } from "@tanstack/react-query";

type Slot = { last: number; timer?: ReturnType<typeof setTimeout> };

/** A throttle of `gapMs`: call it with the client, a key and what to run. */
export function throttlePerClient(
  gapMs: number,
): (queryClient: QueryClient, key: string, run: () => void) => void {
  const slots = new WeakMap<QueryClient, Map<string, Slot>>();
  return (queryClient, key, run) => {
    const byKey = slots.get(queryClient) ?? new Map<string, Slot>();
    slots.set(queryClient, byKey);
    const slot = byKey.get(key) ?? { last: 0 };
    byKey.set(key, slot);
    if (slot.timer) return;
    const go = () => {
      slot.timer = undefined;
      slot.last = Date.now();
      run();
    };
    const wait = slot.last + gapMs - Date.now();
    if (wait <= 0) return go();
    slot.timer = setTimeout(go, wait);
    slot.timer.unref?.();
  };
}
