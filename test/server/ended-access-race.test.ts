// The token check and the removal's commit, in the one order that once lost the log line
// (CI on PostgreSQL): the hub's check of the open streams' tokens runs after its last read
// of the events, and `users remove` commits between the two. The check finds bob's token
// gone; his stream must still end with the reason in the log, which only the removal's
// access.ended carries, so the check reads the events before it ends anything. The hub is
// built here, on a real store whose token check runs the removal first, once.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, it } from "vitest";
import { createEventHub, type EventHub } from "../../src/server/events/hub.ts";
import { endAccessOnEvents } from "../../src/server/revocation.ts";
import { openStore, type Store } from "../../src/server/store/index.ts";
import { hashToken } from "../../src/server/tokens.ts";
import { runUsers } from "../../src/server/users-cli.ts";
import { until } from "../wait.ts";
import { openEvents } from "./sse.ts";
import { folderForFile, madeDb } from "./stores.ts";

const { dir } = folderForFile("parley-ended-access");
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `store` with its token check running `before` first, the next time it is asked. */
function checkingAfter(store: Store) {
  const tokenOwners = store.events.tokenOwners.bind(store.events);
  const hook: { before?: () => Promise<unknown> } = {};
  store.events.tokenOwners = async (tokens) => {
    const before = hook.before;
    hook.before = undefined;
    await before?.();
    return tokenOwners(tokens);
  };
  return hook;
}

async function serveEvents(hub: EventHub, user: { id: string; token: string }) {
  const server = createServer((_req, res) => void hub.open(user, res, undefined));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("an access ended between the events' read and the token check", () => {
  it("ends the stream with the reason in the log", async () => {
    const db = await madeDb(join(dir, "team.db"));
    const bob = (await runUsers(db, ["add", "bob"])).out.at(-1)!;
    const store = await openStore(db);
    cleanups.push(() => store.close());
    const bobId = (await store.events.tokenOwners([hashToken(bob)])).get(hashToken(bob))!;
    const hook = checkingAfter(store);
    const log: string[] = [];
    const hub = createEventHub(store, undefined, (line) => log.push(line), { keepAliveMs: 50 });
    endAccessOnEvents(hub, (line) => log.push(line), {
      dropDemoToken: () => {},
      removed: () => {},
      isSessionToken: () => false,
    });
    await hub.start();
    cleanups.push(() => hub.close());
    const stream = await openEvents(await serveEvents(hub, { id: bobId, token: bob }), bob);

    let removal: Promise<unknown> | undefined;
    hook.before = () => {
      removal = runUsers(db, ["remove", "bob"]);
      return removal;
    };
    const detail = () => `the hub's log:\n${log.join("\n")}`;
    await until(() => removal, "a token check", { detail });
    await removal;
    await until(() => stream.ended, "bob's stream ended", { detail });
    await until(
      () => log.some((l) => l.includes('ended 1 event stream of "bob": removed')),
      "the removal's log line",
      { detail },
    );
  });
});
