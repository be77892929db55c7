// The two pieces that keep one `parley ssh` session from stalling its neighbours: input
// bounded per session (keys and bracketed pastes each with a budget), and window-changes
// coalesced to the latest.
import { afterEach, describe, expect, it, vi } from "vitest";
import { latestOnly } from "../../src/ssh/coalesce.ts";
import {
  inputLimit,
  KEYS_BURST,
  KEYS_PER_SECOND,
  PASTE_BURST_BYTES,
} from "../../src/ssh/input-limit.ts";

afterEach(() => {
  vi.useRealTimers();
});

const bytes = (text: string) => Buffer.from(text, "latin1");
const START = "\x1b[200~";
const END = "\x1b[201~";

describe("input per session", () => {
  it("lets keys through up to the burst, cuts the rest until a pause, and says so once", () => {
    let now = 0;
    const limit = inputLimit(() => now);
    expect(limit.take(bytes("hello")).pass?.toString()).toBe("hello");
    const flood = limit.take(bytes("a".repeat(KEYS_BURST * 4)));
    expect(flood.pass?.length).toBe(KEYS_BURST - 5);
    expect(flood.cut).toBe(KEYS_BURST * 4 - (KEYS_BURST - 5));
    expect(flood.first).toBe(true);
    // The flood goes on without a pause: all of it dropped, said no more.
    now += 100;
    expect(limit.take(bytes("a".repeat(100)))).toEqual({ pass: undefined, cut: 100, first: false });
    // After a pause, keys pass again as the budget refills.
    now += 1000;
    const after = limit.take(bytes("x"));
    expect(after).toEqual({ pass: bytes("x"), cut: 0, first: false });
    now += 1000;
    expect(limit.take(bytes("y".repeat(KEYS_PER_SECOND))).cut).toBe(0);
  });

  it("counts keys in characters, and never cuts one in two", () => {
    const limit = inputLimit(() => 0);
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}"; // 5 characters, 18 bytes
    const typed = Buffer.from(family.repeat(KEYS_BURST / 5 + 10));
    const taken = limit.take(typed);
    expect(taken.first).toBe(true);
    const passed = taken.pass!.toString("utf8");
    expect([...passed]).toHaveLength(KEYS_BURST);
    expect(passed.includes("\ufffd")).toBe(false);
    expect(taken.pass!.length + taken.cut).toBe(typed.length);
  });

  it("takes a bracketed paste far larger than keys, and closes one it cuts", () => {
    let now = 0;
    const limit = inputLimit(() => now);
    const paste = `${START}${"p".repeat(KEYS_BURST * 10)}${END}`;
    expect(limit.take(bytes(paste)).cut).toBe(0);
    now += 10_000;
    const huge = limit.take(bytes(`${START}${"p".repeat(PASTE_BURST_BYTES + 100)}`));
    expect(huge.first).toBe(true);
    expect(huge.cut).toBe(100);
    const passed = huge.pass!.toString("latin1");
    expect(passed.startsWith(START)).toBe(true);
    expect(passed.endsWith(`p${END}`)).toBe(true);
  });

  it("counts keys after a paste's end as keys, in the same chunk", () => {
    const limit = inputLimit(() => 0);
    const chunk = `${START}x${END}${"k".repeat(KEYS_BURST + 10)}`;
    const taken = limit.take(bytes(chunk));
    expect(taken.cut).toBe(10);
    expect(taken.pass!.toString("latin1")).toBe(`${START}x${END}${"k".repeat(KEYS_BURST)}`);
  });
});

describe("window-changes", () => {
  it("apply the first at once, then at most one per interval, always the latest", () => {
    vi.useFakeTimers();
    const applied: number[] = [];
    const sizes = latestOnly(
      (n: number) => applied.push(n),
      250,
      () => Date.now(),
    );
    for (let i = 1; i <= 1000; i++) sizes.push(i);
    expect(applied).toEqual([1]);
    vi.advanceTimersByTime(250);
    expect(applied).toEqual([1, 1000]);
    sizes.push(1001);
    sizes.push(1002);
    vi.advanceTimersByTime(249);
    expect(applied).toEqual([1, 1000]);
    vi.advanceTimersByTime(1);
    expect(applied).toEqual([1, 1000, 1002]);
    // Quiet for a while: the next one is applied at once.
    vi.advanceTimersByTime(1000);
    sizes.push(7);
    expect(applied).toEqual([1, 1000, 1002, 7]);
    sizes.push(8);
    sizes.stop();
    vi.advanceTimersByTime(1000);
    expect(applied).toEqual([1, 1000, 1002, 7]);
  });
});
