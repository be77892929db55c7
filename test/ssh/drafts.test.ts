// `parley ssh` keeps each user's drafts and unsent changes between sessions, in the
// server's folder: a person who drops off mid-sentence finds the sentence when they
// come back, and nobody else sees it.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SshServer } from "../../src/ssh/server.ts";
import { until } from "../wait.ts";
import { startInProcessSsh, visit } from "./visit.ts";

let ssh: SshServer;
let keepDir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  keepDir = mkdtempSync(join(tmpdir(), "parley-ssh-keep-"));
  ({ ssh, close } = await startInProcessSsh({ keepDir }));
});

afterAll(async () => {
  await close?.();
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
