// What the status bar says: the connection state (from every query's outcome) and the
// last thing that happened (an error a person can act on, or a short confirmation).
import { isApiError } from "../../api/errors.ts";
import { createStore, type Store } from "../model/store.ts";

export type Connection =
  | { state: "connecting" }
  | { state: "online" }
  | { state: "offline"; reason: string; since: number }
  /**
   * The server answers, but nothing it says can be read (wrong types, not the API), or
   * (`noApi`) it answers 404 for the API's lists: the base URL's path is wrong.
   */
  | { state: "unreadable"; reason: string; since: number; noApi?: true }
  | { state: "unauthorized"; reason: string };

/**
 * error: something failed (✗). info: done (✓). note: neither, a refusal or a warning,
 * said plainly (no ✓: a refusal is not a success); it stays as long as an error does.
 */
export type Notice = { kind: "error" | "info" | "note"; text: string; at: number } | null;

/**
 * One session's status line. Per session, not per process: `parley ssh` runs many
 * sessions in one process, and one person's notices must never show on another's screen.
 */
export type StatusLine = {
  connection: Store<Connection>;
  /** When what is on screen last matched the server, while it does not (offline, or a start from the cache). */
  lastSynced: Store<number | undefined>;
  notice: Store<Notice>;
  error(prefix: string, error: unknown): void;
  info(text: string): void;
  note(text: string): void;
  clear(): void;
  /**
   * Called for every query outcome, so one failing poll is enough to say "offline".
   * `listing`: the query lists conversations or messages, which no API answers with 404.
   */
  noteQueryResult(error: unknown | null, listing?: boolean): void;
};

/**
 * A 404 for a list of conversations or of messages: no server of this API says that, so
 * the base URL points beside it (`…/v1`, `…/api`). Said at once, with what to try.
 */
export const NO_API_THERE = "No API at this base URL (404): drop /v1 or /api";

/** Unreadable answers in a row (and none readable) before the connection is not online. */
export const UNREADABLE_IN_A_ROW = 3;

/** Says so when a server's answer cannot be read; once per different reason. */
export const UNREADABLE = "The server's answer could not be read";

export function createStatusLine(): StatusLine {
  const connection = createStore<Connection>({ state: "connecting" });
  const notice = createStore<Notice>(null);
  const lastSynced = createStore<number | undefined>(undefined);
  let unreadableInARow = 0;
  let lastUnreadable = "";
  /**
   * An answer that does not fit the API: said once in the notice (every poll would bury
   * whatever else the notice said), and the connection is not online while every answer
   * is unreadable. One bad query among good ones does not make the connection flap.
   */
  const noteUnreadable = (error: unknown) => {
    const reason = `${UNREADABLE}: ${describeError(error)}`;
    if (reason !== lastUnreadable) {
      lastUnreadable = reason;
      notice.set({ kind: "error", text: reason, at: Date.now() });
    }
    unreadableInARow++;
    const prev = connection.get();
    if (unreadableInARow >= UNREADABLE_IN_A_ROW || prev.state === "unreadable")
      connection.set({
        state: "unreadable",
        reason,
        since: prev.state === "unreadable" ? prev.since : Date.now(),
      });
  };
  return {
    connection,
    lastSynced,
    notice,
    error: (prefix, error) =>
      notice.set({ kind: "error", text: `${prefix}: ${describeError(error)}`, at: Date.now() }),
    info: (text) => notice.set({ kind: "info", text, at: Date.now() }),
    note: (text) => notice.set({ kind: "note", text, at: Date.now() }),
    clear: () => notice.set(null),
    noteQueryResult: (error, listing = false) => {
      const before = connection.get().state;
      if (listing && isApiError(error) && error.status === 404) {
        const prev = connection.get();
        if (prev.state !== "unreadable" || !prev.noApi) {
          notice.set({ kind: "error", text: NO_API_THERE, at: Date.now() });
          connection.set({
            state: "unreadable",
            reason: NO_API_THERE,
            since: Date.now(),
            noApi: true,
          });
        }
      } else if (isUnreadable(error)) noteUnreadable(error);
      else {
        if (error === null) unreadableInARow = 0;
        noteQueryResult(connection, error);
      }
      const after = connection.get().state;
      if (before === "online" && (after === "offline" || after === "unreadable"))
        lastSynced.set(Date.now());
      else if (after === "online") lastSynced.set(undefined);
    },
  };
}

/** An answer that came but does not fit the messaging API (or is not JSON at all). */
export function isUnreadable(error: unknown): boolean {
  return isApiError(error) && error.code === "invalid_response" && error.status < 400;
}

export function describeError(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

function noteQueryResult(connectionStore: Store<Connection>, error: unknown | null): void {
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
