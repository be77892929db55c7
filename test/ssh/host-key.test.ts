// The host key parley ssh makes on its first start must be one it can read back.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import { afterEach, describe, expect, it } from "vitest";
import { loadOrCreateHostKey, newHostKey } from "../../src/ssh/host-key.ts";

const { utils } = ssh2;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const generate = () => utils.generateKeyPairSync("ed25519", { comment: "test" });

/** A key pair as ssh2 1.17 writes one in 256 (mscdex/ssh2#1513): its public key lost a leading zero byte. */
function malformed(): { private: string; public: string } {
  for (;;) {
    const pair = generate();
    if (utils.parseKey(pair.private) instanceof Error) return pair;
  }
}

describe("the host key", () => {
  it("is made again when ssh2 writes one it cannot read back", () => {
    const bad = malformed();
    const made: string[] = [];
    const pair = newHostKey(() => {
      const next = made.length === 0 ? bad : generate();
      made.push(next.private);
      return next;
    });
    expect(made).toHaveLength(2);
    expect(pair.private).toBe(made[1]);
    expect(utils.parseKey(pair.private)).not.toBeInstanceOf(Error);
  });

  it("gives up with one line after many attempts rather than loop for ever", () => {
    const bad = malformed();
    expect(() => newHostKey(() => bad)).toThrow(/Cannot make a host key ssh can use/);
  });

  it("is created private on first start and read back after", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-host-key-"));
    dirs.push(dir);
    const path = join(dir, "keys", "ssh_host_ed25519_key");
    const first = loadOrCreateHostKey(path);
    expect(first.created).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = loadOrCreateHostKey(path);
    expect(again.created).toBe(false);
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(readFileSync(path, "utf8")).toBe(first.privateKey);
  });
});
