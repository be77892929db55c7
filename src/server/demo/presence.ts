// Who is signed in: a user whose token came with a request in the last minute. The demo
// users answer only for people nobody is signed in as. Only HTTP requests count (the auth
// middleware reports them); the demo's own replies go straight to the store and do not.
// The store keeps the times, so with PostgreSQL every instance knows who is signed in
// through any of them.
import type { Store } from "../store/store.ts";

/** How long after their last request a user still counts as signed in, in seconds. */
export const SIGNED_IN_SECONDS = 60;

export type Presence = {
  /** A request came with this user's token. */
  seen(userId: string): Promise<void>;
  signedIn(userId: string): Promise<boolean>;
};

/** `now` is in Unix seconds, like the server's clock. */
export function createPresence(
  store: Store,
  now: () => number,
  windowSeconds = SIGNED_IN_SECONDS,
): Presence {
  return {
    seen: (userId) => store.presence.seen(userId, now()),
    async signedIn(userId) {
      const at = await store.presence.lastSeen(userId);
      return at !== undefined && now() - at < windowSeconds;
    },
  };
}
