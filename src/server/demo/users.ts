// The demo users (--demo). Their tokens are stored hashed like anyone's; the tokens
// themselves, which the banner prints on every start, are kept in a file beside the
// database (token-file.ts), never in it. Without that file (`:memory:`, PostgreSQL with no
// folder given, a file another machine made) a demo user gets a token of this process
// only, as `parley ssh` gives its sessions. A demo user the operator has given a token,
// revoked or removed (`parley users`) gets none: they are someone's now.
import type { Store } from "../store/store.ts";
import { hashToken } from "../tokens.ts";
import { keptDemoTokens } from "./token-file.ts";

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
 * each with the token kept in `file`, or else the one `localToken` gives them.
 */
export async function ensureDemoUsers(
  store: Store,
  now: number,
  file: string | undefined,
  localToken: (userId: string) => string,
): Promise<DemoUser[]> {
  const kept = file ? keptDemoTokens(file, DEMO_USERNAMES) : new Map<string, string>();
  const stored = await store.users.ensure(
    DEMO_USERNAMES.map((username, index) => ({
      id: contactId(username),
      username,
      phone_number: PHONES[username],
      avatar_url: `https://avatars.example.com/${username}.png`,
      created_at: now - 120 * DAY + index * 3 * DAY,
      tokenHash: kept.has(username) ? hashToken(kept.get(username)!) : null,
    })),
  );
  const users: DemoUser[] = [];
  for (const username of DEMO_USERNAMES) {
    const user = stored.find((u) => u.id === contactId(username));
    if (!user) continue;
    // Kept, and still this user's in the database (not another machine's file, say).
    const token = kept.get(username);
    const valid = token && (await store.users.byTokenHash(hashToken(token)))?.id === user.id;
    users.push({ username, token: valid ? token : localToken(user.id), contactId: user.id });
  }
  return users;
}
