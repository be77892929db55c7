// Nothing typed is lost: the built `parley` in tmux, against the real server, with the
// server gone. A send made then waits in the outbox; a draft is typed; the client is
// killed with SIGKILL. The next start, with the server still gone, shows the last-known
// conversations and the draft at once; when the server returns the send goes out, once.
// (Quitting after a while offline, and the list found at the next start: the soak
// offline.soak.test.ts.)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApi } from "../../src/api/client.ts";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { until } from "../wait.ts";
import { clientIn, keptFolders } from "./kept-home.ts";
import { e2eEachTest, hasTmux, type Pane } from "./tmux.ts";

const cleanups = e2eEachTest();

/** Every file below `dir`. */
/** The draft in the open conversation's composer (the list's row has it as "draft: …"). */
const inComposer = (screen: string, draft: string): boolean =>
  screen.split("\n").some((line) => line.includes(draft) && !line.includes(`draft: ${draft}`));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Until one file under `home` holds every one of `texts` (the client saved them). */
const savedUnder = (home: string, ...texts: string[]) =>
  until(
    () =>
      filesUnder(home).some((file) => {
        const text = readFileSync(file, "utf8");
        return texts.every((t) => text.includes(t));
      }),
    "the draft and the queued send saved",
  );

/**
 * In `first`, with bob's conversation opened, the server gone (`gone`): a send queued and
 * a draft typed, until both are saved under `home` (within half a second of a change, in
 * the state folder's unsent/).
 */
async function queuedAndDrafted(
  first: Pane,
  home: string,
  gone: () => Promise<void>,
  queued: string,
  draft: string,
) {
  await first.waitFor((s) => s.includes("● online") && s.includes("#team"), "the list", 30_000);
  first.send("Enter");
  await first.waitFor((s) => s.includes("Message bob"), "bob's conversation");
  await gone();
  first.type(queued);
  first.send("Enter");
  await first.waitFor((s) => s.includes("not sent yet"), "the send waiting for the server");
  first.type(draft);
  await first.waitFor((s) => s.includes(draft), "the draft");
  await savedUnder(home, draft, queued);
}

/**
 * Enter in a client started again until bob's conversation is open, `draft` in its composer:
 * the kept list shows before the client has finished starting (it may still be asking the
 * terminal what it supports), so one Enter may be too early.
 */
async function openAgain(second: Pane, draft: string) {
  const opened = (s: string) => inComposer(s, draft) || s.includes("Message bob");
  for (let i = 0; i < 10 && !opened(second.screen()); i++) {
    second.send("Enter");
    await second.waitFor(opened, "the conversation open", 3000).catch(() => undefined);
  }
}

/**
 * Until `pane` shows `queued` sent, and `also`; then the server has it, once. The newest
 * messages the server has.
 */
async function sentOnce(
  pane: Pane,
  also: string,
  queued: string,
  server: { baseUrl: string; token: string },
) {
  await pane.waitFor(
    (s) =>
      s.includes(also) &&
      s.includes(queued) &&
      !s.includes("not sent") &&
      // In flight, it is not yet on the server the check below asks.
      !s.includes("sending…"),
    `"${queued}" delivered, and "${also}"`,
    30_000,
  );
  const page = await createApi(server).messages.list({ limit: 50 });
  expect(page.data.filter((m) => m.message === queued)).toHaveLength(1);
  return page;
}

describe.skipIf(!hasTmux())("what is typed survives", () => {
  it("keeps a queued send and a draft through kill -9 and a start without the server", async () => {
    const { dir, home } = keptFolders(cleanups, "parley-offline");
    const db = join(dir, "server.db");
    let server: RunningServer = await startServer({ port: 0, db, demo: true, demoReplies: false });
    const { port } = server;
    cleanups.push(() => server.close());
    const alice = server.demoUsers[0]!;
    const client = (): Pane => clientIn(home, server.url, alice.token, cleanups);

    const first = client();
    const gone = () => server.close();
    await queuedAndDrafted(first, home, gone, "queued before the crash", "draft before the crash");
    // Once both are on disk, the hardest way out.
    const pid = first.nodePid();
    expect(pid).toBeDefined();
    process.kill(pid!, "SIGKILL");
    await first.waitFor((s) => s.includes("EXITED="), "the client gone");

    // The next start, server still down: the last-known list and the draft, at once.
    const second = client();
    await second.waitFor(
      (s) => s.includes("#team") && s.includes("last synced"),
      "the list kept from the last run",
      30_000,
    );
    // The composer then shows the kept draft, not its placeholder.
    await openAgain(second, "draft before the crash");
    await second.waitFor(
      (s) => s.includes("draft before the crash") && s.includes("queued before the crash"),
      "the draft and the queued send",
    );

    server = await startServer({ port, db, demo: true, demoReplies: false });
    const page = await sentOnce(second, "● online", "queued before the crash", {
      baseUrl: server.url,
      token: alice.token,
    });
    expect(page.data.some((m) => m.message === "draft before the crash")).toBe(false);
  }, 120_000);

  it("shows and sends work queued through one instance when pointed at another of the same server", async () => {
    const { dir, home } = keptFolders(cleanups, "parley-failover");
    // Two instances of one database, as behind a load balancer: one address each.
    const db = join(dir, "server.db");
    const a = await startServer({ port: 0, db, demo: true, demoReplies: false });
    cleanups.push(() => a.close());
    const alice = a.demoUsers[0]!;
    const client = (url: string): Pane => clientIn(home, url, alice.token, cleanups);

    const first = client(a.url);
    await queuedAndDrafted(first, home, () => a.close(), "queued through a", "draft through a");
    // A person killed a moment after typing: the draft is saved 0.5 s after the last change.
    process.kill(first.nodePid()!, "SIGKILL");
    await first.waitFor((s) => s.includes("EXITED="), "the client gone");

    // The other instance, at another address: the same server.
    const b = await startServer({ port: 0, db, demo: true, demoReplies: false });
    cleanups.push(() => b.close());
    const second = client(b.url);
    await second.waitFor((s) => s.includes("#team"), "the list", 30_000);
    await openAgain(second, "draft through a");
    await sentOnce(second, "draft through a", "queued through a", {
      baseUrl: b.url,
      token: alice.token,
    });
  }, 120_000);
});
