// The time for labels that change by the minute ("2m", "Today"): components that read it
// render again when the minute turns, and not otherwise. One timer serves every component
// of every session in the process, and runs only while one of them is on screen.
import { useSyncExternalStore } from "react";

const listeners = new Set<() => void>();
/** Unix seconds as of the last turn of a minute (or of the first reader since none was left). */
let now: number | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

const currentSeconds = () => Math.floor(Date.now() / 1000);

function tick(): void {
  now = currentSeconds();
  schedule();
  for (const listener of listeners) listener();
}

/** The next turn of a wall-clock minute, so every session's "2m" turns together. */
function schedule(): void {
  timer = setTimeout(tick, 60_000 - (Date.now() % 60_000));
  timer.unref?.();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    now = currentSeconds();
    schedule();
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    clearTimeout(timer);
    timer = undefined;
    now = undefined;
  };
}

function snapshot(): number {
  now ??= currentSeconds();
  return now;
}

/** Unix seconds, updated when a wall-clock minute turns. */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
