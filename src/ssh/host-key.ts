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
    const pair = utils.generateKeyPairSync("ed25519", { comment: "parley ssh host key" });
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
