// What the status bar says: the connection state (from every query's outcome) and the
// last thing that happened (an error a person can act on, or a short confirmation).
import { isApiError } from "../api/errors.ts";
import { createStore } from "./store.ts";

export type Connection =
  | { state: "connecting" }
  | { state: "online" }
  | { state: "offline"; reason: string; since: number }
  | { state: "unauthorized"; reason: string };

export type Notice = { kind: "error" | "info"; text: string; at: number } | null;

export const connectionStore = createStore<Connection>({ state: "connecting" });
export const noticeStore = createStore<Notice>(null);

export function reportError(prefix: string, error: unknown): void {
  noticeStore.set({ kind: "error", text: `${prefix}: ${describeError(error)}`, at: Date.now() });
}

export function reportInfo(text: string): void {
  noticeStore.set({ kind: "info", text, at: Date.now() });
}

export function clearNotice(): void {
  noticeStore.set(null);
}

export function describeError(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Called for every query outcome, so one failing poll is enough to say "offline". */
export function noteQueryResult(error: unknown | null): void {
  if (error === null) {
    if (connectionStore.get().state !== "online") connectionStore.set({ state: "online" });
    return;
  }
  if (isApiError(error) && error.status === 401) {
    connectionStore.set({ state: "unauthorized", reason: error.message });
    return;
  }
  if (isApiError(error) && (error.status === 0 || error.status >= 500 || error.status === 429)) {
    const prev = connectionStore.get();
    connectionStore.set({
      state: "offline",
      reason: error.message,
      since: prev.state === "offline" ? prev.since : Date.now(),
    });
  }
}
