// Who is signed in: a user whose token came with a request in the last minute. The demo
// users answer only for people nobody is signed in as. Only HTTP requests count (the auth
// middleware reports them); the demo's own replies go straight to the store and do not.

/** How long after their last request a user still counts as signed in, in seconds. */
export const SIGNED_IN_SECONDS = 60;

export type Presence = {
  /** A request came with this user's token. */
  seen(userId: string): void;
  signedIn(userId: string): boolean;
};

/** `now` is in Unix seconds, like the server's clock. */
export function createPresence(now: () => number, windowSeconds = SIGNED_IN_SECONDS): Presence {
  const lastSeen = new Map<string, number>();
  return {
    seen(userId) {
      lastSeen.set(userId, now());
    },
    signedIn(userId) {
      const at = lastSeen.get(userId);
      return at !== undefined && now() - at < windowSeconds;
    },
  };
}
