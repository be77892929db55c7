// A person's access ends at once, on every instance and process that serves them:
// `parley users revoke`, `users token` (replacing a token) and `users remove` append an
// `access.ended` event in their own transaction, which reaches each instance's one reader
// as any event does (NOTIFY on PostgreSQL; on SQLite in process, and from another process
// by the data_version look, a few times a second). The instance then ends the person's
// streams whose token went (every one of them when removed) and says so in one line;
// `parley ssh` ends the person's sessions too (see `removed`).
import { logQuote } from "../log-escape.ts";
import type { EventHub } from "./events/hub.ts";
import { decodeAccessEnd } from "./store/store.ts";

/** The tokens this process made itself (never stored), told of each ended access. */
export type OwnTokens = {
  /** First, whatever ended it: the demo's token of this process for them goes. */
  dropDemoToken(userId: string): void;
  /** Then, once their streams ended, when they were removed: their sessions' tokens go. */
  removed(userId: string, username: string): void;
  /** A `parley ssh` session's token: its stream ends with the session, logged by ssh. */
  isSessionToken(token: string): boolean;
};

export function endAccessOnEvents(
  hub: Pick<EventHub, "onAccessEnded" | "endStreamsOf">,
  log: (line: string, error?: unknown) => void,
  own: OwnTokens,
): void {
  hub.onAccessEnded((event) => {
    const end = decodeAccessEnd(event.resourceId);
    const userId = event.recipients[0];
    if (!end || userId === undefined) return;
    own.dropDemoToken(userId);
    const removed = end.why === "removed";
    hub.endStreamsOf(userId, removed).then(
      (tokens) => {
        const ended = tokens.filter((token) => !own.isSessionToken(token)).length;
        if (removed) own.removed(userId, end.username);
        if (ended === 0) return;
        const streams = `${ended} event stream${ended === 1 ? "" : "s"}`;
        log(`ended ${streams} of ${logQuote(end.username, 64)}: ${end.why}`);
      },
      (error: unknown) => log(`events: ending streams failed: ${(error as Error).message}`, error),
    );
  });
}
