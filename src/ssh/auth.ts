// Who may sign in: public keys only, from an authorized_keys file (read again on every
// attempt, so an edit counts at once) or, with --demo, any key that proves itself. The
// SSH user name is who the person is; a signed attempt is what proves the key.
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

export type AuthorizedKeys = { keys: ParsedKey[]; skipped: number };

const KEY_TYPE = /^(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-[a-z0-9-]+@openssh\.com)$/;

/**
 * The keys of an OpenSSH authorized_keys file. Lines with options (`from=`, `command=`,
 * `restrict`, …) are skipped and counted: parley could not enforce them, and a key that
 * is limited there must not become unlimited here.
 */
export function parseAuthorizedKeys(text: string): AuthorizedKeys {
  const keys: ParsedKey[] = [];
  let skipped = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [type, blob] = line.split(/\s+/);
    if (!type || !KEY_TYPE.test(type) || !blob) {
      skipped++;
      continue;
    }
    const key = utils.parseKey(`${type} ${blob}`);
    if (key instanceof Error) {
      skipped++;
      continue;
    }
    keys.push(key);
  }
  return { keys, skipped };
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
 * Whether the attempt may go on. Without a signature the client only asks whether the
 * key would do (it says so before it signs), so the key alone decides; with one, the
 * signature over the session must verify with that key, which proves the client holds
 * the private half. `allowed` null means any key (the demo).
 */
export function checkKey(attempt: KeyAttempt, allowed: readonly ParsedKey[] | null): boolean {
  let key: ParsedKey | undefined;
  if (allowed === null) {
    const parsed = utils.parseKey(attempt.data);
    if (parsed instanceof Error) return false;
    key = parsed;
  } else {
    key = allowed.find((k) => k.getPublicSSH().equals(attempt.data));
  }
  if (!key || key.type !== attempt.algo) return false;
  if (attempt.signature === undefined) return true;
  if (attempt.blob === undefined) return false;
  return key.verify(attempt.blob, attempt.signature, attempt.hashAlgo) === true;
}

export type AuthOptions = {
  /** The keys that may sign in, asked on every attempt; `null`: any key (--demo). */
  authorizedKeys: (() => readonly ParsedKey[]) | null;
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
    let allowed: readonly ParsedKey[] | null;
    try {
      allowed = options.authorizedKeys ? options.authorizedKeys() : null;
    } catch (error) {
      options.log(`parley ssh: ${(error as Error).message}`);
      allowed = [];
    }
    const key = fingerprint(ctx.key.data);
    if (!checkKey(attempt, allowed)) {
      fail(ctx, `${ctx.signature ? "bad signature for" : "unknown"} key ${key}`);
      return;
    }
    if (ctx.signature) signedIn = { username: ctx.username, key };
    ctx.accept();
  });
  return () => signedIn;
}
