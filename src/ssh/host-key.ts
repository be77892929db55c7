// The server's host key: made on first start, kept in the XDG data folder, and its
// fingerprint as OpenSSH prints it. (The keys that may sign in: src/ssh/auth.ts.)
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import ssh2 from "ssh2";
import { ConfigError } from "../config.ts";

const { utils } = ssh2;

/** A ConfigError, so the command line prints it as one line and exits 1. */
export class HostKeyError extends ConfigError {}

/** OpenSSH's fingerprint: SHA256 of the public key blob, unpadded base64. */
export function fingerprint(publicBlob: Buffer): string {
  return `SHA256:${createHash("sha256").update(publicBlob).digest("base64").replace(/=+$/, "")}`;
}

export type HostKey = { privateKey: string; fingerprint: string; path: string; created: boolean };

type KeyPair = { private: string; public: string };

/**
 * A new ed25519 key pair that ssh2 can read back. ssh2 1.17 strips the leading zero bytes
 * of the public key it writes, so about one ed25519 key in 256 comes out malformed
 * (mscdex/ssh2#1513, open): such a key would stop `parley ssh` at its first start, and
 * every start after. A key that does not parse is made again.
 */
export function newHostKey(
  generate: () => KeyPair = () =>
    utils.generateKeyPairSync("ed25519", { comment: "parley ssh host key" }),
): KeyPair {
  for (let attempt = 1; ; attempt++) {
    const pair = generate();
    const key = utils.parseKey(pair.private);
    if (!(key instanceof Error) && key.isPrivateKey()) return pair;
    if (attempt >= 16)
      throw new HostKeyError(
        `Cannot make a host key ssh can use: ${key instanceof Error ? key.message : "not a private key"}`,
      );
  }
}

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
      throw new HostKeyError(`Cannot read the host key ${path}: ${(error as Error).message}`);
    }
  }
  let created = false;
  if (text === undefined) {
    const pair = newHostKey();
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      // "wx": two servers starting at once must not overwrite each other's key.
      writeFileSync(path, pair.private, { mode: 0o600, flag: "wx" });
      text = pair.private;
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new HostKeyError(`Cannot write the host key ${path}: ${(error as Error).message}`);
      }
      text = readFileSync(path, "utf8");
    }
  } else if ((statSync(path).mode & 0o077) !== 0) {
    // Like sshd, keep the private key private; fix it rather than refuse.
    chmodSync(path, 0o600);
  }
  const key = utils.parseKey(text);
  if (key instanceof Error || !key.isPrivateKey()) {
    throw new HostKeyError(
      `The host key ${path} is not a private key ssh can use${key instanceof Error ? ` (${key.message})` : ""}. Move it away and a new one is made.`,
    );
  }
  return { privateKey: text, fingerprint: fingerprint(key.getPublicSSH()), path, created };
}
