// Who may sign in: public keys only, from an authorized_keys file (read again on every
// attempt, so an edit counts at once) where each key names the one user it signs in as
// (`parley-user="alice" ssh-ed25519 AAAA…`), or, with --demo, anyone: any key that proves
// itself, or none at all, as any demo user. The SSH user name says who the person is; a signed attempt with a key
// listed for that user is what proves it.
import { readFileSync } from "node:fs";
import ssh2, { type AuthContext, type Connection, type ParsedKey } from "ssh2";
import { ConfigError } from "../config.ts";
import { logEscape, logQuote } from "../log-escape.ts";
import type { FailureTracker } from "./failures.ts";
import { fingerprint } from "./host-key.ts";

const { utils } = ssh2;

const MAX_AUTH_ATTEMPTS = 20;

/** A ConfigError, so the command line prints it as one line and exits 1. */
export class AuthorizedKeysError extends ConfigError {}

/** A key that may sign in, and the user it signs in as. */
export type AuthorizedKey = { key: ParsedKey; user: string };

export type AuthorizedKeys = {
  keys: AuthorizedKey[];
  /** Lines with options parley cannot enforce, or that are not keys. */
  skipped: number;
  /** Keys that name no user (no `parley-user=`): they sign in as nobody. */
  unnamed: number;
};

const KEY_TYPE = /^(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-[a-z0-9-]+@openssh\.com)$/;
/** The one option parley takes: which user the key is. */
const PARLEY_USER = /^parley-user=(?:"([^"]+)"|([^\s",]+))$/;

/** A line's options (before the key type), if it has any, and the rest. */
function splitOptions(line: string): { options?: string; rest: string } {
  const first = line.split(/\s/, 1)[0]!;
  if (KEY_TYPE.test(first)) return { rest: line };
  // Options run to the first space outside double quotes.
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' && line[i - 1] !== "\\") quoted = !quoted;
    else if (!quoted && /\s/.test(c))
      return { options: line.slice(0, i), rest: line.slice(i).trim() };
  }
  return { options: line, rest: "" };
}

/**
 * The keys of an authorized_keys file, each with the user it signs in as: the line's
 * `parley-user="NAME"` option. Lines with any other option (`from=`, `command=`,
 * `restrict`, …) are skipped and counted: parley could not enforce them, and a key that is
 * limited there must not become unlimited here. A key naming no user is counted apart.
 */
export function parseAuthorizedKeys(text: string): AuthorizedKeys {
  const keys: AuthorizedKey[] = [];
  let skipped = 0;
  let unnamed = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const { options, rest } = splitOptions(line);
    const named = options === undefined ? undefined : PARLEY_USER.exec(options);
    if (options !== undefined && !named) {
      skipped++;
      continue;
    }
    const [type, blob] = rest.split(/\s+/);
    const key = type && KEY_TYPE.test(type) && blob ? utils.parseKey(`${type} ${blob}`) : undefined;
    if (key === undefined || key instanceof Error) {
      skipped++;
      continue;
    }
    if (!named) {
      unnamed++;
      continue;
    }
    keys.push({ key, user: named[1] ?? named[2]! });
  }
  return { keys, skipped, unnamed };
}

export function readAuthorizedKeys(path: string): AuthorizedKeys {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new AuthorizedKeysError(
      `Cannot read the authorized keys ${path}: ${(error as Error).message}`,
    );
  }
  return parseAuthorizedKeys(text);
}

/** A public key login attempt: the key, and (after the client's probe) its signature. */
export type KeyAttempt = {
  algo: string;
  data: Buffer;
  signature?: Buffer;
  blob?: Buffer;
  hashAlgo?: string;
};

/**
 * Why the attempt may not go on, or undefined when it may. Without a signature the client
 * only asks whether the key would do (it says so before it signs), so the key alone
 * decides; with one, the signature over the session must verify with that key, which
 * proves the client holds the private half. `allowed` null means any key, as any user
 * (the demo); else the key must be listed for `username`.
 */
export function checkKey(
  attempt: KeyAttempt,
  allowed: readonly AuthorizedKey[] | null,
  username: string,
): string | undefined {
  let key: ParsedKey | undefined;
  if (allowed === null) {
    const parsed = utils.parseKey(attempt.data);
    if (parsed instanceof Error) return "not a key";
    key = parsed;
  } else {
    const listed = allowed.filter((k) => k.key.getPublicSSH().equals(attempt.data));
    if (listed.length === 0) return "unknown key";
    key = listed.find((k) => k.user === username)?.key;
    if (!key) return "key of another user";
  }
  if (key.type !== attempt.algo) return "wrong key type";
  if (attempt.signature === undefined) return undefined;
  if (attempt.blob === undefined) return "no signature";
  return key.verify(attempt.blob, attempt.signature, attempt.hashAlgo) === true
    ? undefined
    : "bad signature";
}

export type AuthOptions = {
  /** The keys that may sign in, asked on every attempt; `null`: any key (--demo). */
  authorizedKeys: (() => readonly AuthorizedKey[]) | null;
  log: (line: string) => void;
  /** Where the connection comes from: its address (as the failures count it) and port. */
  address: string;
  port: number;
  /** Failed sign-ins per address: repeated ones are answered ever more slowly. */
  failures: FailureTracker;
  /** Where failures are logged: rate-limited, since anyone can cause them. */
  noisy: (line: string) => void;
};

/** Who signed in, and with which key (its SHA256 fingerprint, as ssh-keygen -l prints). */
export type SignedIn = { username: string; key: string };

/**
 * Answers the connection's authentication requests: public keys only, at most
 * MAX_AUTH_ATTEMPTS tries. Each failure is logged (one escaped line) and answered after
 * the address's delay. Returns who signed in (undefined before that).
 */
export function authenticate(
  connection: Connection,
  options: AuthOptions,
): () => SignedIn | undefined {
  let signedIn: SignedIn | undefined;
  let attempts = 0;
  let closed = false;
  connection.once("close", () => {
    closed = true;
  });
  const fail = (ctx: AuthContext, why: string) => {
    options.noisy(
      `parley ssh: failed sign-in from ${logEscape(options.address)} port ${options.port}: user ${logQuote(ctx.username, 64)}, ${logEscape(ctx.method, 32)}${why ? ` (${why})` : ""}`,
    );
    const tooMany = ++attempts >= MAX_AUTH_ATTEMPTS;
    void options.failures.failed(options.address).then(() => {
      if (closed) return;
      ctx.reject(["publickey"]);
      if (tooMany) connection.end();
    });
  };
  connection.on("authentication", (ctx) => {
    // A public demo lets anyone in, with or without a key, as ssh-chat does: a visitor
    // without one would otherwise read only "Permission denied (publickey)".
    if (
      options.authorizedKeys === null &&
      (ctx.method === "none" || ctx.method === "keyboard-interactive")
    ) {
      signedIn = { username: ctx.username, key: "no key (--demo)" };
      ctx.accept();
      return;
    }
    if (ctx.method === "none") {
      // How every client starts, asking what is offered: not a failure.
      ctx.reject(["publickey"]);
      return;
    }
    if (ctx.method !== "publickey") {
      // Passwords and keyboard-interactive are never taken.
      fail(ctx, "");
      return;
    }
    const attempt: KeyAttempt = {
      algo: ctx.key.algo,
      data: ctx.key.data,
      signature: ctx.signature,
      blob: ctx.blob,
      hashAlgo: ctx.hashAlgo,
    };
    let allowed: readonly AuthorizedKey[] | null;
    try {
      allowed = options.authorizedKeys ? options.authorizedKeys() : null;
    } catch (error) {
      options.log(`parley ssh: ${(error as Error).message}`);
      allowed = [];
    }
    const key = fingerprint(ctx.key.data);
    const why = checkKey(attempt, allowed, ctx.username);
    if (why !== undefined) {
      fail(ctx, `${why}, ${key}`);
      return;
    }
    if (ctx.signature) signedIn = { username: ctx.username, key };
    ctx.accept();
  });
  return () => signedIn;
}
