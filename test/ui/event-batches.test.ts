// Events into batches (src/ui/queries/event-batches.ts), on a fake clock: the first after a
// quiet frame at once, the rest of a frame together, bursts five times a second, a flood
// turned into one refetch. A batch falls due on a timer and is applied one turn of the
// event loop after it (keys typed meanwhile first): `advance` runs both.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BUSY_FRAME_MS,
  eventBatches,
  FRAME_MS,
  MAX_WAITING,
} from "../../src/ui/queries/event-batches.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A batch falls due on a timer and is applied at the next (Node's 0 ms timeout is 1 ms). */
const HOP_MS = 1;
const advance = (ms: number) => vi.advanceTimersByTime(ms);

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
    advance(HOP_MS - 1);
    expect(batches).toEqual([]);
    advance(1);
    expect(batches).toEqual([[1]]);
    b.push(2);
    b.push(3);
    advance(FRAME_MS - 1);
    expect(batches).toEqual([[1]]);
    advance(1 + HOP_MS);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it("spaces batches five times a second while a burst lasts", () => {
    const { b, batches } = batcher();
    for (let i = 0; i < 50; i++) b.push(i);
    advance(HOP_MS);
    expect(batches).toHaveLength(1);
    b.push(50);
    advance(FRAME_MS + HOP_MS);
    expect(batches).toHaveLength(1);
    advance(BUSY_FRAME_MS - FRAME_MS);
    expect(batches.at(-1)).toEqual([50]);
    // A quiet batch brings back the short frame.
    b.push(51);
    advance(FRAME_MS + HOP_MS);
    expect(batches.at(-1)).toEqual([51]);
  });

  it("turns a flood past what can wait into one refetch, and goes on after", () => {
    const { b, batches, overflows } = batcher();
    for (let i = 0; i <= MAX_WAITING + 10; i++) b.push(i);
    advance(HOP_MS);
    expect(batches).toEqual([]);
    expect(overflows()).toBe(1);
    b.push(1);
    advance(BUSY_FRAME_MS + HOP_MS);
    expect(batches).toEqual([[1]]);
  });

  it("applies nothing after stop, whether its time had come or not", () => {
    const { b, batches } = batcher();
    b.push(1);
    b.stop();
    advance(1000);
    b.push(2);
    advance(HOP_MS - 1);
    // Due, and waiting its turn: stopped there too.
    b.stop();
    advance(1000);
    expect(batches).toEqual([]);
  });
});
