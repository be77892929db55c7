// Two instances of one database are one server: the client's kept work (drafts, queued
// changes) belongs to the server's id, which every answer carries (Parley-Server-Id), not
// to the address it was made through.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  adoptKeptFiles,
  keepCarriedOver,
  loadCarriedOver,
  offlineFiles,
} from "../../src/client/offline.ts";
import { askServerId, askUsername, serverIdentity } from "../../src/client/server-id.ts";
import { createClientSession } from "../../src/client/session.ts";
import type { Paths } from "../../src/config.ts";
import { startServer } from "../../src/server/index.ts";
import { runUsers } from "../../src/server/users-cli.ts";
import { folderForFile } from "../server/stores.ts";
import { pathsUnder } from "./paths-under.ts";

const { dir, running } = folderForFile("parley-server-id");

let n = 0;
function paths(): Paths {
  const root = join(dir, `home-${n++}`);
  return pathsUnder(root);
}

async function serve(db: string) {
  const server = await startServer({ db, demo: true, demoReplies: false });
  running.push(server);
  return server;
}

/** Saves a draft and a queued send under `files`, as a run of the client would. */
async function keepWork(files: ReturnType<typeof offlineFiles>) {
  const { session } = createClientSession({ api: { baseUrl: "http://127.0.0.1:9", token: "t" } });
  const saving = keepCarriedOver(session, files);
  session.drafts.update("conv_1", (d) => ({ ...d, value: "half a thought", cursor: 14 }));
  session.outbox.add(
    { kind: "send", conversationId: "conv_1", text: "queued", idempotencyKey: "key-1" },
    { failure: "Not sent" },
  );
  saving.stop();
}

describe("the server's identity", () => {
  it("is one for two instances of one database, so kept work follows the server", async () => {
    const db = join(dir, "one.db");
    const [a, b] = [await serve(db), await serve(db)];
    const other = await serve(join(dir, "other.db"));
    expect(await askServerId(a.url)).toBe(a.serverId);
    const p = paths();
    const viaA = await serverIdentity(p, a.url);
    const viaB = await serverIdentity(p, b.url);
    expect(viaB.identity).toBe(viaA.identity);
    expect((await serverIdentity(p, other.url)).identity).not.toBe(viaA.identity);

    const token = a.demoUsers[0]!.token;
    await keepWork(offlineFiles(p, viaA.identity, { token: token }));
    const carried = loadCarriedOver(offlineFiles(p, viaB.identity, { token: token }));
    expect(carried.drafts).toEqual({ conv_1: "half a thought" });
    expect(carried.changes?.map((c) => c.change.kind)).toEqual(["send"]);
    // Another user on the same server has none of it.
    expect(loadCarriedOver(offlineFiles(p, viaB.identity, { token: "another token" }))).toEqual({});
  });

  it("is remembered per address, and a changed answer is noticed for the next start", async () => {
    const p = paths();
    const answers = ["one", "two"];
    let asked = 0;
    const ask = async () => {
      asked++;
      return answers[0];
    };
    const first = await serverIdentity(p, "http://lb.example", ask);
    expect(first.identity).toBe("parley-server one");
    expect(asked).toBe(1);
    // Known now: not asked again before the start, only by the check after it.
    const second = await serverIdentity(p, "http://lb.example", ask);
    expect(second.identity).toBe("parley-server one");
    expect(asked).toBe(1);
    answers.shift();
    await second.check(join(p.state, "parley.log"));
    expect((await serverIdentity(p, "http://lb.example", ask)).identity).toBe("parley-server two");
  });

  it("is the address for a server that says none, or does not answer", async () => {
    const p = paths();
    expect((await serverIdentity(p, "http://127.0.0.1:9")).identity).toBe("http://127.0.0.1:9");
  });

  it("takes over the work kept under the address before the id was known", async () => {
    const p = paths();
    const former = offlineFiles(p, "http://chat.example", { token: "t" });
    await keepWork(former);
    const current = offlineFiles(p, "parley-server abc", { token: "t" });
    adoptKeptFiles(current, former);
    expect(loadCarriedOver(current).drafts).toEqual({ conv_1: "half a thought" });
    expect(loadCarriedOver(former)).toEqual({});
  });
});

describe("the user's identity", () => {
  it("is asked of the server once, and keeps drafts and queue across a rotated token", async () => {
    const db = join(dir, "rotate.db");
    await (await startServer({ db })).close();
    const first = (await runUsers(db, ["add", "bob"])).out[0]!;
    const server = await serve(db);
    expect(await askUsername(server.url, first)).toBe("bob");
    expect(await askUsername(server.url, "prly_not-a-token")).toBeUndefined();
    expect(await askUsername("http://127.0.0.1:9", first)).toBeUndefined();

    const p = paths();
    const identity = (await serverIdentity(p, server.url)).identity;
    await keepWork(offlineFiles(p, identity, { username: "bob", token: first }));
    // The operator rotates bob's token; his client learns who the new one is.
    const second = (await runUsers(db, ["token", "bob"])).out[0]!;
    expect(await askUsername(server.url, first)).toBeUndefined();
    const username = await askUsername(server.url, second);
    expect(username).toBe("bob");
    const carried = loadCarriedOver(offlineFiles(p, identity, { username, token: second }));
    expect(carried.drafts).toEqual({ conv_1: "half a thought" });
    expect(carried.changes?.map((c) => c.change.kind)).toEqual(["send"]);
  });

  it("takes over what an older client kept by the token's hash", async () => {
    const p = paths();
    const byToken = offlineFiles(p, "parley-server abc", { token: "t1" });
    await keepWork(byToken);
    const byName = offlineFiles(p, "parley-server abc", { username: "bob", token: "t1" });
    adoptKeptFiles(byName, byToken);
    expect(loadCarriedOver(byName).drafts).toEqual({ conv_1: "half a thought" });
    expect(loadCarriedOver(byToken)).toEqual({});
  });
});
