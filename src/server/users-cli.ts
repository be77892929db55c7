// `parley users …` and `parley groups …`: the people of a server and their tokens, managed
// from the command line on SQLite and PostgreSQL alike. A token is printed once, when it is
// made; the database keeps only its SHA-256 (src/server/tokens.ts).
import { openStore, type Store } from "./store/index.ts";
import { hashToken, newToken } from "./tokens.ts";

/** A mistake in how the command was called: the CLI prints it with the command's help hint. */
export class UsersUsageError extends Error {}

/** A request that cannot be done (no such user, a name taken): one line, exit 1. */
export class UsersError extends Error {
  readonly expected = true;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,31}$/;

function checkName(name: string | undefined, what: "user" | "group"): string {
  if (name === undefined) throw new UsersUsageError(`Give the ${what}'s name.`);
  if (!NAME.test(name)) {
    throw new UsersUsageError(
      `"${name.replace(/[^\x20-\x7e]/g, "?").slice(0, 40)}" cannot be a ${what} name: use 1 to 32 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
  return name;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

const when = (seconds: number | null) =>
  seconds === null
    ? "never"
    : new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ");

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd(),
  );
}

export const USERS_ACTIONS = ["add", "list", "token", "revoke", "remove"] as const;
export const GROUPS_ACTIONS = ["add", "list"] as const;

async function withStore<T>(db: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Runs `parley users ACTION [NAME]` against `db`; returns the lines for stdout. */
export async function runUsers(db: string, positionals: string[]): Promise<string[]> {
  const [action, name, ...extra] = positionals;
  if (!USERS_ACTIONS.includes(action as never)) {
    throw new UsersUsageError(
      action === undefined
        ? `Say what to do: ${USERS_ACTIONS.join(", ")}.`
        : `Unknown action "users ${action.slice(0, 20)}": use ${USERS_ACTIONS.join(", ")}.`,
    );
  }
  if (action === "list") {
    if (name !== undefined) throw new UsersUsageError("users list takes no name.");
    return withStore(db, async (store) => {
      const accounts = await store.accounts.list();
      if (accounts.length === 0) return ["no users yet: parley users add NAME"];
      return table([
        ["NAME", "ID", "TOKENS", "LAST ACTIVE (UTC)", "STATE"],
        ...accounts.map((a) => [
          a.username,
          a.id,
          String(a.tokens),
          when(a.last_active_at),
          a.removed_at !== null ? "removed" : a.tokens === 0 ? "no token" : "active",
        ]),
      ]);
    });
  }
  const user = checkName(name, "user");
  if (extra.length > 0) throw new UsersUsageError(`users ${action} takes one name.`);
  return withStore(db, async (store) => {
    const now = nowSeconds();
    const missing = () =>
      new UsersError(`There is no user "${user}" here (parley users list shows who there is).`);
    if (action === "add") {
      const token = newToken();
      const added = await store.accounts.add(
        {
          id: `ct_${user}`,
          username: user,
          phone_number: null,
          avatar_url: null,
          created_at: now,
        },
        hashToken(token),
      );
      if (!added) {
        throw new UsersError(
          `There is already a user "${user}" (parley users token ${user} gives them a new token).`,
        );
      }
      return [`added ${user} (contact id ct_${user}); their token, shown this once:`, token];
    }
    if (action === "token") {
      const token = newToken();
      if (!(await store.accounts.setToken(user, hashToken(token), now))) throw missing();
      return [`a new token for ${user}, shown this once (their old ones no longer work):`, token];
    }
    if (action === "revoke") {
      if (!(await store.accounts.setToken(user, null, now))) throw missing();
      return [`${user}'s tokens no longer work (parley users token ${user} gives a new one).`];
    }
    if (!(await store.accounts.remove(user, now))) throw missing();
    return [
      `removed ${user}: they cannot sign in, and are out of their groups; what they wrote stays.`,
    ];
  });
}

/** Runs `parley groups ACTION [NAME] [--members a,b]` against `db`. */
export async function runGroups(
  db: string,
  positionals: string[],
  members: string | undefined,
): Promise<string[]> {
  const [action, name, ...extra] = positionals;
  if (!GROUPS_ACTIONS.includes(action as never)) {
    throw new UsersUsageError(
      action === undefined
        ? `Say what to do: ${GROUPS_ACTIONS.join(", ")}.`
        : `Unknown action "groups ${action.slice(0, 20)}": use ${GROUPS_ACTIONS.join(", ")}.`,
    );
  }
  if (action === "list") {
    if (name !== undefined) throw new UsersUsageError("groups list takes no name.");
    return withStore(db, async (store) => {
      const groups = await store.accounts.groups();
      if (groups.length === 0) return ["no groups yet: parley groups add NAME --members a,b"];
      return table([
        ["NAME", "ID", "MEMBERS"],
        ...groups.map((g) => [g.name, g.id, g.members.join(",")]),
      ]);
    });
  }
  const group = checkName(name, "group");
  if (extra.length > 0) throw new UsersUsageError("groups add takes one name.");
  const names = (members ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  if (names.length === 0) throw new UsersUsageError("Name the members: --members alice,bob.");
  for (const member of names) checkName(member, "user");
  return withStore(db, async (store) => {
    if (!(await store.accounts.addGroup(`grp_${group}`, group, names, nowSeconds()))) {
      const known = new Set((await store.accounts.list()).map((a) => a.username));
      const unknown = names.filter((m) => !known.has(m));
      throw new UsersError(
        `No user ${unknown.map((m) => `"${m}"`).join(", ")} here (parley users add NAME first).`,
      );
    }
    const now = (await store.accounts.groups()).find((g) => g.id === `grp_${group}`);
    return [`group ${group} (id grp_${group}): ${now?.members.join(", ")}`];
  });
}
