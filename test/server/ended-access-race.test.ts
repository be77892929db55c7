// The token check and the removal's commit, in the one order that once lost the log line
// (CI on PostgreSQL): the hub's check of the open streams' tokens runs after its last read
// of the events, and `users remove` commits between the two. The check finds bob's token
// gone; his stream must still end with the reason in the log, which only the removal's
// access.ended carries, so the check reads the events before it ends anything.
import { join } from "node:path";
import { describe, it, vi } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { runUsers } from "../../src/server/users-cli.ts";
import { until } from "../wait.ts";
import { openEvents } from "./sse.ts";
import { folderForFile, madeDb } from "./stores.ts";

/** Run once, inside the next token check, before it asks the database. */
let beforeCheck: (() => Promise<unknown>) | undefined;

vi.mock("../../src/server/store/index.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/server/store/index.ts")>();
  return {
    ...original,
    openStore: async (...args: Parameters<typeof original.openStore>) => {
      const store = await original.openStore(...args);
      const tokenOwners = store.events.tokenOwners.bind(store.events);
      store.events.tokenOwners = async (tokens) => {
        const run = beforeCheck;
        beforeCheck = undefined;
        await run?.();
        return tokenOwners(tokens);
      };
      return store;
    },
  };
});

const { dir, running } = folderForFile("parley-ended-access");

describe("an access ended between the events' read and the token check", () => {
  it("ends the stream with the reason in the log", async () => {
    const db = await madeDb(join(dir, "team.db"));
    const bob = (await runUsers(db, ["add", "bob"])).out.at(-1)!;
    const log: string[] = [];
    const server = await startServer({
      db,
      demoReplies: false,
      log: (line) => log.push(line),
      events: { keepAliveMs: 50 },
    });
    running.push(server);
    const stream = await openEvents(server.url, bob);
    beforeCheck = () => runUsers(db, ["remove", "bob"]);
    await until(() => stream.ended, "bob's stream ended");
    await until(
      () => log.some((l) => l.includes('ended 1 event stream of "bob": removed')),
      "the removal's log line",
    );
  });
});
