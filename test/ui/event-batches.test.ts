// Events into batches (src/ui/queries/event-batches.ts), on a fake clock: the first after a
// quiet frame at once, the rest of a frame together, bursts ten times a second, a flood
// turned into one refetch.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BUSY_FRAME_MS,
  eventBatches,
  FRAME_MS,
  MAX_WAITING,
} from "../../src/ui/queries/event-batches.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function batcher() {
  const batches: number[][] = [];
  let overflows = 0;
  const b = eventBatches<number>(
    (events) => batches.push(events),
    () => overflows++,
  );
  return { b, batches, overflows: () => overflows };
}

describe("event batches", () => {
  it("applies the first event at once and the rest of its frame together", () => {
    const { b, batches } = batcher();
    b.push(1);
    vi.advanceTimersByTime(0);
    expect(batches).toEqual([[1]]);
    b.push(2);
    b.push(3);
    vi.advanceTimersByTime(FRAME_MS - 1);
    expect(batches).toEqual([[1]]);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it("spaces batches ten times a second while a burst lasts", () => {
    const { b, batches } = batcher();
    for (let i = 0; i < 50; i++) b.push(i);
    vi.advanceTimersByTime(0);
    expect(batches).toHaveLength(1);
    b.push(50);
    vi.advanceTimersByTime(FRAME_MS);
    expect(batches).toHaveLength(1);
    vi.advanceTimersByTime(BUSY_FRAME_MS - FRAME_MS);
    expect(batches.at(-1)).toEqual([50]);
    // A quiet batch brings back the short frame.
    b.push(51);
    vi.advanceTimersByTime(FRAME_MS);
    expect(batches.at(-1)).toEqual([51]);
  });

  it("turns a flood past what can wait into one refetch, and goes on after", () => {
    const { b, batches, overflows } = batcher();
    for (let i = 0; i <= MAX_WAITING + 10; i++) b.push(i);
    vi.advanceTimersByTime(0);
    expect(batches).toEqual([]);
    expect(overflows()).toBe(1);
    b.push(1);
    vi.advanceTimersByTime(BUSY_FRAME_MS);
    expect(batches).toEqual([[1]]);
  });

  it("applies nothing after stop", () => {
    const { b, batches } = batcher();
    b.push(1);
    b.stop();
    vi.advanceTimersByTime(1000);
    expect(batches).toEqual([]);
  });
});
