// Keys: the server's host key (made on first start, kept in the XDG data folder) and the
// client keys that may sign in (an authorized_keys file, or with --demo any key that
// proves itself).
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import ssh2, { type ParsedKey } from "ssh2";
import { ConfigError } from "../config.ts";

const { utils } = ssh2;

/** A ConfigError, so the command line prints it as one line and exits 1. */
export class KeyError extends ConfigError {}

/** OpenSSH's fingerprint: SHA256 of the public key blob, unpadded base64. */
export function fingerprint(publicBlob: Buffer): string {
  return `SHA256:${createHash("sha256").update(publicBlob).digest("base64").replace(/=+$/, "")}`;
}

export type HostKey = { privateKey: string; fingerprint: string; path: string; created: boolean };

/**
 * Reads the host key at `path`, or makes an ed25519 one there (mode 0600, folders
 * created) when there is none. A key that exists but does not parse is an error: making a
 * new one would change the server's identity behind its users' backs.
 */
export function loadOrCreateHostKey(path: string): HostKey {
  let text: string | undefined;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new KeyError(`Cannot read the host key ${path}: ${(error as Error).message}`);
    }
  }
  let created = false;
  if (text === undefined) {
    const pair = utils.generateKeyPairSync("ed25519", { comment: "parley ssh host key" });
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      // "wx": two servers starting at once must not overwrite each other's key.
      writeFileSync(path, pair.private, { mode: 0o600, flag: "wx" });
      text = pair.private;
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new KeyError(`Cannot write the host key ${path}: ${(error as Error).message}`);
      }
      text = readFileSync(path, "utf8");
    }
  } else if ((statSync(path).mode & 0o077) !== 0) {
    // Like sshd, keep the private key private; fix it rather than refuse.
    chmodSync(path, 0o600);
  }
  const key = utils.parseKey(text);
  if (key instanceof Error || !key.isPrivateKey()) {
    throw new KeyError(
      `The host key ${path} is not a private key ssh can use${key instanceof Error ? ` (${key.message})` : ""}. Move it away and a new one is made.`,
    );
  }
  return { privateKey: text, fingerprint: fingerprint(key.getPublicSSH()), path, created };
}

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
    throw new KeyError(`Cannot read the authorized keys ${path}: ${(error as Error).message}`);
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
