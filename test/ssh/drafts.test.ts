// `parley ssh` keeps each user's drafts and unsent changes between sessions, in the
// server's folder: a person who drops off mid-sentence finds the sentence when they
// come back, and nobody else sees it.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { type SshServer, startSshServer } from "../../src/ssh/server.ts";
import { until } from "../wait.ts";
import { visit } from "./visit.ts";

let api: RunningServer;
let ssh: SshServer;
let keepDir: string;

beforeAll(async () => {
  keepDir = mkdtempSync(join(tmpdir(), "parley-ssh-keep-"));
  api = await startServer({ port: 0, demo: true, demoReplies: false });
  ssh = await startSshServer({
    hostKey: newHostKey().private,
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

describe("parley ssh sessions", () => {
  it("find the draft they left, per user", async () => {
    // Drafts are saved within half a second of a change: hang up a second after typing.
    await visit(ssh, "alice", { text: "half a sentence from alice", holdMs: 1000 });
    await until(() => readdirSync(join(keepDir, "unsent")).length > 0, "alice's draft saved");
    const back = await visit(ssh, "alice", { text: "" });
    expect(back).toContain("half a sentence from alice");
    const bob = await visit(ssh, "bob", { text: "" });
    expect(bob).not.toContain("half a sentence from alice");
  }, 60_000);

  it("keep every session's draft when one user has several at once", async () => {
    // Two sessions of carol type into the same conversation; neither overwrites the other.
    await Promise.all([
      visit(ssh, "carol", { text: "draft from the laptop", holdMs: 1000 }),
      visit(ssh, "carol", { text: "draft from the phone", holdMs: 1000 }),
    ]);
    await until(() => ssh.liveSessions() === 0, "both sessions gone");
    const back = await visit(ssh, "carol", { text: "" });
    expect(back).toContain("draft from the laptop");
    expect(back).toContain("draft from the phone");
  }, 60_000);
});
