// `parley users …` and `parley groups …`: the people of a server and their tokens, managed
// from the command line on SQLite and PostgreSQL alike. A token is printed once, when it is
// made; the database keeps only its SHA-256 (src/server/tokens.ts).
import { logQuote } from "../log-escape.ts";
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
      `${logQuote(name, 40)} cannot be a ${what} name: use 1 to 32 of a-z (no capitals or accents), 0-9, ".", "_" or "-", starting with a letter or digit.`,
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

export const USERS_ACTIONS = [
  "add",
  "list",
  "token",
  "tokens",
  "revoke",
  "remove",
  "restore",
] as const;
export const GROUPS_ACTIONS = ["add", "remove", "list"] as const;

/** What a command prints: `out` to stdout (a token alone, a table), `say` to stderr. */
export type Said = { out: string[]; say: string[] };

/** --token-name and --expires of `users add` and `users token`, and --token-name of revoke. */
export type TokenFlags = { tokenName?: string | undefined; expires?: string | undefined };

async function withStore<T>(db: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** --expires: a number of days or hours (30d, 12h) from now, or a date (2027-01-31, UTC). */
export function parseExpiry(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const span = /^(\d{1,5})([dh])$/.exec(value);
  if (span) return now + Number(span[1]) * (span[2] === "d" ? 86_400 : 3_600);
  if (/^\d{4}-\d\d-\d\d$/.test(value)) {
    const at = Date.parse(`${value}T00:00:00Z`) / 1000;
    if (Number.isFinite(at) && at > now) return at;
    if (Number.isFinite(at)) throw new UsersUsageError(`--expires ${value} is not in the future.`);
  }
  throw new UsersUsageError(
    `--expires must be days or hours from now (30d, 12h) or a date (2027-01-31), not "${value.replace(/[^\x20-\x7e]/g, "?").slice(0, 20)}".`,
  );
}

function tokenName(flags: TokenFlags): string {
  const name = flags.tokenName ?? "default";
  if (!NAME.test(name)) {
    throw new UsersUsageError(
      `--token-name must be 1 to 32 of a-z, 0-9, ".", "_", "-" (say laptop or phone), not "${name.replace(/[^\x20-\x7e]/g, "?").slice(0, 40)}".`,
    );
  }
  return name;
}

const SSH_STILL =
  "Their ssh key (parley ssh --authorized-keys) still signs in: take its line out of that file, or parley users remove NAME to stop both.";

/** Runs `parley users ACTION [NAME]` against `db`. */
export async function runUsers(
  db: string,
  positionals: string[],
  flags: TokenFlags = {},
): Promise<Said> {
  const [action, name, ...extra] = positionals;
  if (!USERS_ACTIONS.includes(action as never)) {
    throw new UsersUsageError(
      action === undefined
        ? `Say what to do: ${USERS_ACTIONS.join(", ")}.`
        : `Unknown action "users ${action.replace(/[^\x20-\x7e]/g, "?").slice(0, 20)}": use ${USERS_ACTIONS.join(", ")}.`,
    );
  }
  if (action === "list") {
    if (name !== undefined) throw new UsersUsageError("users list takes no name.");
    return withStore(db, async (store) => {
      const accounts = await store.accounts.list();
      if (accounts.length === 0) return { out: [], say: ["no users yet: parley users add NAME"] };
      return {
        out: table([
          ["NAME", "ID", "TOKENS", "LAST ACTIVE (UTC)", "STATE"],
          ...accounts.map((a) => [
            a.username,
            a.id,
            String(a.tokens),
            when(a.last_active_at),
            a.removed_at !== null ? "removed" : a.tokens === 0 ? "no token" : "active",
          ]),
        ]),
        say: [],
      };
    });
  }
  const user = checkName(name, "user");
  if (extra.length > 0) throw new UsersUsageError(`users ${action} takes one name.`);
  const now = nowSeconds();
  const named = action === "add" || action === "token" || action === "revoke";
  if (!named && flags.tokenName !== undefined) {
    throw new UsersUsageError(`users ${action} takes no --token-name.`);
  }
  if (action !== "add" && action !== "token" && flags.expires !== undefined) {
    throw new UsersUsageError(`users ${action} takes no --expires.`);
  }
  const label = tokenName(flags);
  const expires = parseExpiry(flags.expires, now);
  const until = expires === null ? "" : `, until ${when(expires)} UTC`;
  return withStore(db, async (store) => {
    const missing = () =>
      new UsersError(`There is no user "${user}" here (parley users list shows who there is).`);
    if (action === "add") {
      const token = newToken();
      const added = await store.accounts.add(
        { id: `ct_${user}`, username: user, phone_number: null, avatar_url: null, created_at: now },
        { hash: hashToken(token), name: label, expires_at: expires },
      );
      if (!added) {
        throw new UsersError(
          `There is already a user "${user}" (parley users token ${user} gives them a new token).`,
        );
      }
      return {
        out: [token],
        say: [
          `added ${user} (contact id ct_${user}); their token "${label}"${until}, shown this once:`,
        ],
      };
    }
    if (action === "token") {
      const token = newToken();
      const done = await store.accounts.addToken(
        user,
        { hash: hashToken(token), name: label, expires_at: expires },
        now,
      );
      if (done === "missing") throw missing();
      if (done === "removed") {
        throw new UsersError(
          `${user} was removed: parley users restore ${user} first, if they are to sign in again.`,
        );
      }
      return {
        out: [token],
        say: [
          `a new token "${label}" for ${user}${until}, shown this once (their old "${label}" no longer works; their other tokens still do):`,
        ],
      };
    }
    if (action === "tokens") {
      const tokens = await store.accounts.tokens(user);
      if (tokens === undefined) throw missing();
      if (tokens.length === 0)
        return { out: [], say: [`${user} has no tokens: parley users token ${user}`] };
      return {
        out: table([
          ["TOKEN", "CREATED (UTC)", "LAST USED (UTC)", "EXPIRES (UTC)"],
          ...tokens.map((t) => [
            t.name,
            when(t.created_at),
            when(t.last_used_at),
            t.expires_at === null
              ? "never"
              : `${when(t.expires_at)}${t.expires_at <= now ? " (expired)" : ""}`,
          ]),
        ]),
        say: [],
      };
    }
    if (action === "revoke") {
      const which = flags.tokenName === undefined ? undefined : label;
      const gone = await store.accounts.revoke(user, which);
      if (gone === undefined) throw missing();
      if (which !== undefined && gone === 0) {
        throw new UsersError(
          `${user} has no token "${which}" (parley users tokens ${user} lists them).`,
        );
      }
      const what =
        which === undefined ? `every token of ${user} (${gone})` : `${user}'s token "${which}"`;
      return {
        out: [],
        say: [
          `revoked ${what}: it no longer signs in, and open event streams on it end within seconds.`,
          SSH_STILL.replace("NAME", user),
        ],
      };
    }
    if (action === "restore") {
      const done = await store.accounts.restore(user);
      if (done === "missing") throw missing();
      if (done === "active") throw new UsersError(`${user} was not removed.`);
      return {
        out: [],
        say: [
          `restored ${user}: they may be given a token (parley users token ${user}) and put back in groups; they have none now.`,
        ],
      };
    }
    if (!(await store.accounts.remove(user, now))) throw missing();
    return {
      out: [],
      say: [
        `removed ${user}: every token revoked, out of every group; their open streams and parley ssh sessions end within seconds, their ssh key no longer signs in. What they wrote stays. (parley users restore ${user} undoes it.)`,
      ],
    };
  });
}

/** Runs `parley groups ACTION [NAME] [--members a,b]` against `db`. */
export async function runGroups(
  db: string,
  positionals: string[],
  members: string | undefined,
): Promise<Said> {
  const [action, name, ...extra] = positionals;
  if (!GROUPS_ACTIONS.includes(action as never)) {
    throw new UsersUsageError(
      action === undefined
        ? `Say what to do: ${GROUPS_ACTIONS.join(", ")}.`
        : `Unknown action "groups ${action.replace(/[^\x20-\x7e]/g, "?").slice(0, 20)}": use ${GROUPS_ACTIONS.join(", ")}.`,
    );
  }
  if (action === "list") {
    if (name !== undefined) throw new UsersUsageError("groups list takes no name.");
    return withStore(db, async (store) => {
      const groups = await store.accounts.groups();
      if (groups.length === 0) {
        return { out: [], say: ["no groups yet: parley groups add NAME --members a,b"] };
      }
      return {
        out: table([
          ["NAME", "ID", "MEMBERS"],
          ...groups.map((g) => [g.name, g.id, g.members.join(",")]),
        ]),
        say: [],
      };
    });
  }
  const group = checkName(name, "group");
  if (extra.length > 0) throw new UsersUsageError(`groups ${action} takes one name.`);
  const names = (members ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  if (names.length === 0) throw new UsersUsageError("Name the members: --members alice,bob.");
  for (const member of names) checkName(member, "user");
  const quoted = (list: string[]) => list.map((m) => `"${m}"`).join(", ");
  return withStore(db, async (store) => {
    const id = `grp_${group}`;
    if (action === "add") {
      const refused = await store.accounts.addGroup(id, group, names, nowSeconds());
      if (refused.unknown.length > 0) {
        throw new UsersError(
          `No user ${quoted(refused.unknown)} here (parley users add NAME first); nothing changed.`,
        );
      }
      if (refused.removed.length > 0) {
        throw new UsersError(
          `${quoted(refused.removed)} ${refused.removed.length === 1 ? "was" : "were"} removed (parley users restore NAME first); nothing changed.`,
        );
      }
    } else {
      const absent = await store.accounts.removeMembers(id, names);
      if (absent === undefined)
        throw new UsersError(`There is no group "${group}" here (parley groups list).`);
      if (absent.length > 0) {
        throw new UsersError(
          `${quoted(absent)} not in group ${group}; the others named are out of it now.`,
        );
      }
    }
    const now = (await store.accounts.groups()).find((g) => g.id === id);
    return {
      out: [],
      say: [`group ${group} (id ${id}): ${now?.members.join(", ") || "no members"}`],
    };
  });
}
