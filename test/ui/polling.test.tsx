import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay } from "../../src/api/retry.ts";
import { MAX_BACKOFF_MS, usePoll } from "../../src/ui/queries/polling.ts";

describe("poll intervals", () => {
  it("are the base pace, give or take 15%, so clients that started together drift apart", () => {
    expect(backoffDelay(2000, 0, MAX_BACKOFF_MS, () => 0)).toBe(1700);
    expect(backoffDelay(2000, 0, MAX_BACKOFF_MS, () => 0.5)).toBe(2000);
    expect(backoffDelay(2000, 0, MAX_BACKOFF_MS, () => 0.999999)).toBe(2300);
    const waits = new Set(Array.from({ length: 50 }, () => backoffDelay(2000, 0, MAX_BACKOFF_MS)));
    expect(waits.size).toBeGreaterThan(10);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(1700);
  });

  it("double with each failure since the last success, up to 8 s (jittered the same way)", () => {
    const middle = () => 0.5;
    expect(backoffDelay(2000, 1, MAX_BACKOFF_MS, middle)).toBe(4000);
    expect(backoffDelay(1000, 3, MAX_BACKOFF_MS, middle)).toBe(8000);
    expect(backoffDelay(2000, 10, MAX_BACKOFF_MS, middle)).toBe(MAX_BACKOFF_MS);
    expect(backoffDelay(2000, 10, MAX_BACKOFF_MS, () => 0.999999)).toBeLessThan(10_000);
    expect(backoffDelay(2000, 10, MAX_BACKOFF_MS, () => 0)).toBe(MAX_BACKOFF_MS * 0.85);
  });
});

// On a fake clock: the poll's timers, the writer's, Query's and Ink's all move together
// and only when the test says, so a busy machine cannot stretch a pace.
describe("the poll scheduler", () => {
  let unmount: (() => void) | undefined;
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    unmount?.();
    vi.useRealTimers();
  });

  function Polled({ every }: { every: number }) {
    useQuery({ queryKey: ["list"], queryFn: () => fetches.push(Date.now()) });
    usePoll(["list"], every, true);
    return null;
  }
  let fetches: number[] = [];
  /** Counts fetches afresh and renders Polled at `every` ms, under a QueryClient of its own. */
  function startPolling(every: number) {
    fetches = [];
    const queryClient = new QueryClient();
    const tree = () => (
      <QueryClientProvider client={queryClient}>
        <Polled every={every} />
      </QueryClientProvider>
    );
    const app = render(tree());
    unmount = app.unmount;
    return { queryClient, app, rerender: () => app.rerender(tree()) };
  }

  it("keeps its pace while other code writes to the query and renders (they used to reset it)", async () => {
    const { queryClient, rerender } = startPolling(100);
    // What the open conversation's poll does to the list: a write every 30 ms, far more
    // often than the list's own pace, and a re-render each time.
    const writer = setInterval(() => {
      queryClient.setQueryData(["list"], Math.random());
      rerender();
    }, 30);
    await vi.advanceTimersByTimeAsync(1200);
    clearInterval(writer);
    // One fetch on mount, then one per 100 ms (±15%); a timer reset by each write gives none.
    expect(fetches.length).toBeGreaterThanOrEqual(10);
  });

  it("stops when the query is no longer needed", async () => {
    const { app } = startPolling(50);
    await vi.advanceTimersByTimeAsync(300);
    app.unmount();
    const count = fetches.length;
    expect(count).toBeGreaterThanOrEqual(5);
    await vi.advanceTimersByTimeAsync(300);
    expect(fetches.length).toBe(count);
  });
});
