import { describe, expect, it } from "vitest";
import { backoffDelay, MAX_BACKOFF_MS } from "../../src/ui/queries/polling.ts";

describe("poll intervals", () => {
  it("are the base pace, give or take 15%, so clients that started together drift apart", () => {
    expect(backoffDelay(2000, 0, () => 0)).toBe(1700);
    expect(backoffDelay(2000, 0, () => 0.5)).toBe(2000);
    expect(backoffDelay(2000, 0, () => 0.999999)).toBe(2300);
    const waits = new Set(Array.from({ length: 50 }, () => backoffDelay(2000, 0)));
    expect(waits.size).toBeGreaterThan(10);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(1700);
  });

  it("double with each failure since the last success, up to 30 s (jittered the same way)", () => {
    const middle = () => 0.5;
    expect(backoffDelay(2000, 1, middle)).toBe(4000);
    expect(backoffDelay(2000, 3, middle)).toBe(16_000);
    expect(backoffDelay(2000, 10, middle)).toBe(MAX_BACKOFF_MS);
    expect(backoffDelay(2000, 10, () => 0)).toBe(MAX_BACKOFF_MS * 0.85);
  });
});
