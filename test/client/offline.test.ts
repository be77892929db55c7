// What the client keeps between runs: only its own owner's, only of this version, and a
// bad file is set aside with one line in the log, never a crash.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writePrivateFile } from "../../src/client/files.ts";
import {
  keepCarriedOver,
  keepServerData,
  loadCarriedOver,
  offlineFiles,
} from "../../src/client/offline.ts";
import { createClientSession } from "../../src/client/session.ts";
import type { Paths } from "../../src/config.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { until } from "../wait.ts";
import { pathsUnder } from "./paths-under.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function paths(): Paths {
  const root = mkdtempSync(join(tmpdir(), "parley-kept-"));
  dirs.push(root);
  return pathsUnder(root);
}

const session = () =>
  createClientSession({ api: { baseUrl: "http://127.0.0.1:9", token: "tok_a" } });

const message = (id: string, text: string) => ({
  id,
  conversation_id: "conv_1",
  contact: { id: "ct_bob", username: "bob" },
  message: text,
  reactions: [],
  attachments: [],
  created_at: 1_700_000_000,
  updated_at: null,
});

describe("kept server data", () => {
  it("comes back in the next run, with the names of contacts, and is private", async () => {
    const p = paths();
    const files = offlineFiles(p, "http://chat.example", { token: "tok_a" });
    const first = session();
    const kept = await keepServerData(first.queryClient, first.session, files);
    expect(kept.restoredAt).toBeUndefined();
    first.queryClient.setQueryData(keys.messages.latest("conv_1"), {
      data: [message("msg_1", "kept for later")],
      has_more: false,
    });
    kept.flush();
    kept.stop();
    expect(statSync(files.cache).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(files.cache)).mode & 0o777).toBe(0o700);

    const second = session();
    const restored = await keepServerData(second.queryClient, second.session, files);
    expect(restored.restoredAt).toBeGreaterThan(0);
    expect(
      JSON.stringify(second.queryClient.getQueryData(keys.messages.latest("conv_1"))),
    ).toContain("kept for later");
    expect(second.session.contacts.get().get("ct_bob")?.username).toBe("bob");
    restored.stop();
  });

  it("of another user, another server, another version, or corrupt, is set aside with a line in the log", async () => {
    const p = paths();
    const mine = offlineFiles(p, "http://chat.example", { token: "tok_a" });
    const first = session();
    const kept = await keepServerData(first.queryClient, first.session, mine);
    first.queryClient.setQueryData(keys.messages.latest("conv_1"), {
      data: [message("msg_1", "alice's secret")],
      has_more: false,
    });
    kept.flush();
    kept.stop();
    const saved = readFileSync(mine.cache, "utf8");

    const cases: [string, string][] = [
      [
        "another server or user",
        saved.replace('"server":"http://chat.example"', '"server":"http://other"'),
      ],
      ["another server or user", saved.replace(/"user":"[0-9a-f]+"/, '"user":"0000"')],
      ["another version", saved.replace("parley-cache-1", "parley-cache-0")],
      ["in JSON", saved.slice(0, saved.length / 2)],
    ];
    for (const [reason, text] of cases) {
      writeFileSync(mine.cache, text);
      const next = session();
      const restored = await keepServerData(next.queryClient, next.session, mine);
      restored.stop();
      expect(restored.restoredAt).toBeUndefined();
      expect(next.queryClient.getQueryCache().getAll()).toHaveLength(0);
      const log = readFileSync(mine.log, "utf8").trim().split("\n");
      expect(log.at(-1)).toContain("discarded the cache");
      expect(log.at(-1)).toContain(reason);
    }
  });

  it("is kept apart per server and user", () => {
    const p = paths();
    const a = offlineFiles(p, "http://chat.example", { token: "tok_a" });
    expect(offlineFiles(p, "http://chat.example", { token: "tok_b" }).cache).not.toBe(a.cache);
    expect(offlineFiles(p, "http://other.example", { token: "tok_a" }).cache).not.toBe(a.cache);
    expect(a.cache).not.toContain("tok_a");
  });
});

/** A session whose drafts and unsent changes are kept in files of a fresh folder's. */
function carriedOver() {
  const p = paths();
  const files = offlineFiles(p, "http://chat.example", { token: "tok_a" });
  const { session: s } = session();
  return { p, files, session: s, saving: keepCarriedOver(s, files) };
}

describe("drafts and unsent changes", () => {
  it("are saved within a second of a change and carried over", async () => {
    const { files, session: first, saving } = carriedOver();
    first.drafts.update("conv_1", (d) => ({ ...d, value: "half a thought", cursor: 14 }));
    first.outbox.add(
      { kind: "send", conversationId: "conv_1", text: "on its way", idempotencyKey: "key-1" },
      { failure: "Not sent" },
    );
    first.outbox.update(first.outbox.changes.get()[0]!.id, { status: "sending" });
    // Written within a second, without a flush: a kill -9 then loses nothing.
    const carried = await until(() => {
      const kept = loadCarriedOver(files);
      return kept.drafts && kept.changes?.length ? kept : undefined;
    }, "the draft and the change saved");
    saving.stop();
    expect(carried.drafts).toEqual({ conv_1: "half a thought" });
    expect(carried.changes?.map((c) => c.change)).toEqual([
      { kind: "send", conversationId: "conv_1", text: "on its way", idempotencyKey: "key-1" },
    ]);
    expect(statSync(files.carry).mode & 0o777).toBe(0o600);

    // A send that was on its way goes again, under the same key.
    const next = createClientSession({
      api: { baseUrl: "http://127.0.0.1:9", token: "tok_a" },
      carried,
    }).session;
    expect(next.drafts.get("conv_1").value).toBe("half a thought");
    expect(next.outbox.changes.get()[0]?.status).toBe("queued");
  });

  it("keep the draft, not the message being edited, when parley stops mid-edit", async () => {
    const { files, session: s, saving } = carriedOver();
    s.drafts.update("conv_1", (d) => ({ ...d, value: "my draft", cursor: 8 }));
    s.drafts.startEdit("conv_1", message("msg_1", "an old message") as never);
    saving.stop();
    expect(loadCarriedOver(files).drafts).toEqual({ conv_1: "my draft" });
  });

  it("keep a draft's attachments, also of a draft with no text", async () => {
    const { files, session: s, saving } = carriedOver();
    const attached = [
      { file_url: "https://x.test/a.png", filename: "a.png", file_type: "image/png" },
      { file_url: "https://x.test/b", filename: "b" },
    ];
    s.drafts.setAttachments("conv_1", attached);
    s.drafts.setAttachments("conv_2", attached.slice(1));
    s.drafts.update("conv_2", (d) => ({ ...d, value: "see b", cursor: 5 }));
    saving.stop();
    const carried = loadCarriedOver(files);
    const next = createClientSession({
      api: { baseUrl: "http://127.0.0.1:9", token: "tok_a" },
      carried,
    }).session;
    expect(next.drafts.attachmentsOf("conv_1")).toEqual(attached);
    expect(next.drafts.attachmentsOf("conv_2")).toEqual(attached.slice(1));
    expect(next.drafts.get("conv_2").value).toBe("see b");
    // Sent: the draft is empty again, attachments and all.
    next.drafts.clear("conv_1");
    expect(next.drafts.attachmentsOf("conv_1")).toEqual([]);
  });

  it("keep the conversations set to ring on mentions (M), per server and user", async () => {
    const p = paths();
    const files = offlineFiles(p, "http://chat.example", { username: "alice", token: "tok_a" });
    const { session: s } = session();
    const saving = keepCarriedOver(s, files);
    s.mentionsOnly.set(new Set(["conv_1", "conv_2"]));
    await until(() => loadCarriedOver(files).mentionsOnly?.length === 2, "saved within a second");
    s.mentionsOnly.set(new Set(["conv_2"]));
    saving.stop();
    const next = createClientSession({
      api: { baseUrl: "http://127.0.0.1:9", token: "tok_a" },
      carried: loadCarriedOver(files),
    }).session;
    expect([...next.mentionsOnly.get()]).toEqual(["conv_2"]);
    // Another user of the same server has none of them.
    const bob = offlineFiles(p, "http://chat.example", { username: "bob", token: "tok_b" });
    expect(loadCarriedOver(bob).mentionsOnly ?? []).toEqual([]);
  });

  it("of the version before attachments are still read", () => {
    const p = paths();
    const files = offlineFiles(p, "http://chat.example", { token: "tok_a" });
    writePrivateFile(
      files.carry,
      JSON.stringify({ version: 1, owner: files.owner, drafts: { conv_1: "x" }, changes: [] }),
    );
    expect(loadCarriedOver(files).drafts).toEqual({ conv_1: "x" });
  });

  it("of another user are not loaded", () => {
    const p = paths();
    const mine = offlineFiles(p, "http://chat.example", { token: "tok_a" });
    const theirs = offlineFiles(p, "http://chat.example", { token: "tok_b" });
    writePrivateFile(
      theirs.carry,
      JSON.stringify({ version: 1, owner: mine.owner, drafts: { conv_1: "x" }, changes: [] }),
    );
    expect(loadCarriedOver(theirs)).toEqual({});
    expect(readFileSync(theirs.log, "utf8")).toContain("another server or user");
  });

  it("that do not hold what parley writes are set aside whole, with one line in the log", () => {
    const p = paths();
    const files = offlineFiles(p, "http://chat.example", { token: "tok_a" });
    const good = {
      id: "c1",
      change: { kind: "send", conversationId: "conv_1", text: "hi", idempotencyKey: "k1" },
      status: "queued",
      failure: "Not sent",
      queuedAt: 1,
    };
    const bad = [
      { ...good, change: { kind: "send", conversationId: "conv_1", text: "no key" } },
      { ...good, change: { kind: "rm -rf", conversationId: "conv_1" } },
      { ...good, change: { ...good.change, attachments: "https://evil.example" } },
      { ...good, status: "sent" },
      "not a change",
    ];
    for (const [i, change] of bad.entries()) {
      writePrivateFile(
        files.carry,
        JSON.stringify({
          version: 2,
          owner: files.owner,
          drafts: { conv_1: "kept?" },
          changes: [good, change],
        }),
      );
      expect(loadCarriedOver(files), JSON.stringify(change)).toEqual({});
      expect(existsSync(files.carry)).toBe(false);
      const log = readFileSync(files.log, "utf8").trim().split("\n");
      expect(log).toHaveLength(i + 1);
      expect(log.at(-1)).toMatch(/set aside the unsent work in .* as .*\.bad-\d+: changes\.1/);
    }
    const aside = readdirSync(dirname(files.carry)).filter((name) => name.includes(".bad-"));
    expect(aside.length).toBeGreaterThan(0);

    // A good file still loads, its change as it was written.
    writePrivateFile(
      files.carry,
      JSON.stringify({ version: 2, owner: files.owner, changes: [good] }),
    );
    expect(loadCarriedOver(files).changes).toEqual([good]);
  });

  it("that are not JSON are set aside, not deleted", () => {
    const p = paths();
    const files = offlineFiles(p, "http://chat.example", { token: "tok_a" });
    writePrivateFile(files.carry, '{"version": 2, "drafts": {"conv_1": "half');
    expect(loadCarriedOver(files)).toEqual({});
    const aside = readdirSync(dirname(files.carry)).filter((name) => name.includes(".bad-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dirname(files.carry), aside[0]!), "utf8")).toContain("half");
  });
});
