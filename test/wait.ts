// How tests wait: for a state, never for a span of time. The machine is shared (two cores,
// several suites at once), so anything can take longer than usual; a wait for what should
// happen holds on a busy machine where a fixed sleep does not. Built on vi.waitFor, which
// keeps real timers while a test fakes them.
import { vi } from "vitest";

export type WaitOptions = {
  /** Default 15 s: long enough for a loaded machine, short of the test's own timeout. */
  timeoutMs?: number;
  /** How often `check` runs; default 25 ms. */
  intervalMs?: number;
  /** More to say on a time-out (a screen, a log). */
  detail?: () => string;
};

/**
 * Resolves with what `check` returns once that is truthy (an async check is awaited; one
 * that throws counts as not yet). After `timeoutMs`: "Timed out waiting for <what>".
 */
export async function until<T>(
  check: () => T | Promise<T>,
  what: string,
  { timeoutMs = 15_000, intervalMs = 25, detail }: WaitOptions = {},
): Promise<NonNullable<T>> {
  let last: unknown;
  try {
    return await vi.waitFor(
      async () => {
        const value = await check();
        if (!value) throw new Error("not yet");
        return value as NonNullable<T>;
      },
      { timeout: timeoutMs, interval: intervalMs },
    );
  } catch (error) {
    last = error;
  }
  const reason = last instanceof Error && last.message !== "not yet" ? ` (${last.message})` : "";
  throw new Error(`Timed out waiting for ${what}${reason}${detail ? `\n${detail()}` : ""}`);
}

/**
 * A fixed pause, only where there is no state to wait for: to let a moment pass in which
 * something must NOT happen, or to pace an external program (tmux, a pty) the test drives
 * as a person would. Never to wait for something to happen: use `until`.
 */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
