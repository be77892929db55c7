// The demo users (--demo). Their tokens are never stored: each start gives every demo user a
// token that lives in the memory of that process only (as `parley ssh` gives its sessions),
// which the banner prints and the embedded demo signs in with. A demo user the operator has
// given a token, revoked or removed (`parley users`) gets none: they are someone's now.
import type { Store } from "../store/store.ts";

export type DemoUser = { username: string; token: string; contactId: string };

/** The first is who the client signs in as. */
export const DEMO_USERNAMES = ["alice", "bob", "carol", "dave", "erin", "frank"] as const;
export type DemoUsername = (typeof DEMO_USERNAMES)[number];

const PHONES: Record<DemoUsername, string> = {
  alice: "+1 415 555 0101",
  bob: "+1 415 555 0102",
  carol: "+44 20 7946 0103",
  dave: "+1 646 555 0104",
  erin: "+49 30 901820 05",
  frank: "+1 512 555 0106",
};

export const contactId = (username: string) => `ct_${username}`;

const DAY = 86_400;

/**
 * Creates the demo users when the database has no users yet; returns them, alice first,
 * each with the token `tokenFor` gives them (one of this process's own).
 */
export async function ensureDemoUsers(
  store: Store,
  now: number,
  tokenFor: (userId: string) => string,
): Promise<DemoUser[]> {
  const stored = await store.users.ensure(
    DEMO_USERNAMES.map((username, index) => ({
      id: contactId(username),
      username,
      phone_number: PHONES[username],
      avatar_url: `https://avatars.example.com/${username}.png`,
      created_at: now - 120 * DAY + index * 3 * DAY,
    })),
  );
  return DEMO_USERNAMES.flatMap((username) => {
    const user = stored.find((u) => u.id === contactId(username));
    return user ? [{ username, token: tokenFor(user.id), contactId: user.id }] : [];
  });
}
