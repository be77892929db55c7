// `parley ssh` keeps each user's drafts and unsent changes between sessions, in the
// server's folder: a person who drops off mid-sentence finds the sentence when they
// come back, and nobody else sees it.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { type SshServer, startSshServer } from "../../src/ssh/server.ts";

let api: RunningServer;
let ssh: SshServer;
let keepDir: string;
const clientKey = ssh2.utils.generateKeyPairSync("ed25519").private;

beforeAll(async () => {
  keepDir = mkdtempSync(join(tmpdir(), "parley-ssh-keep-"));
  api = await startServer({ port: 0, demo: true, demoReplies: false });
  ssh = await startSshServer({
    hostKey: ssh2.utils.generateKeyPairSync("ed25519").private,
    api: { url: api.url, users: api.demoUsers },
    authorizedKeys: null,
    keepDir,
  });
});

afterAll(async () => {
  await ssh?.close();
  await api?.close();
  rmSync(keepDir, { recursive: true, force: true });
});

/** Signs in, opens the first conversation, types `text` (if any), and returns what was on screen. */
function visit(username: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    const timer = setTimeout(() => reject(new Error(`${username}: no composer`)), 20_000);
    client.on("error", reject);
    client.on("ready", () => {
      client.shell({ term: "xterm-256color", cols: 120, rows: 40 }, (error, stream) => {
        if (error) return reject(error);
        let screen = "";
        let step = 0;
        let again: NodeJS.Timeout | undefined;
        stream.on("data", (chunk: Buffer) => {
          screen += chunk.toString("utf8");
          if (step === 0 && screen.includes("online") && screen.includes("▸")) {
            step = 1;
            stream.write("\r");
            again = setInterval(() => stream.write("\r"), 2000);
          } else if (step === 1 && screen.includes("Enter send")) {
            step = 2;
            clearInterval(again);
            const before = screen;
            if (text) stream.write(text);
            // Saved within half a second of a change; give it a second, then hang up.
            setTimeout(() => {
              clearTimeout(timer);
              client.end();
              resolve(before);
            }, 1000);
          }
        });
        stream.on("close", () => clearInterval(again));
      });
    });
    client.connect({ host: ssh.host, port: ssh.port, username, privateKey: clientKey });
  });
}

describe("parley ssh sessions", () => {
  it("find the draft they left, per user", async () => {
    await visit("alice", "half a sentence from alice");
    await until(() => readdirSync(join(keepDir, "unsent")).length > 0);
    const back = await visit("alice", "");
    expect(back).toContain("half a sentence from alice");
    const bob = await visit("bob", "");
    expect(bob).not.toContain("half a sentence from alice");
  }, 60_000);
});

async function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
