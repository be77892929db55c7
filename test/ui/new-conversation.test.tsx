// The `n` prompt as a person uses it: a user name typed in part, the people the server knows
// completed below it, Enter starting the conversation; an unknown name in one line; and on a
// server without GET /v1/contacts (a foreign one) the contacts seen in messages, as before.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApi } from "../../src/api/client.ts";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { runGroups, runUsers } from "../../src/server/users-cli.ts";
import { type Seen, startForeignServer } from "../api/foreign-server.ts";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor } from "./helpers.ts";

const each = harnessEachTest();
/** The demo's six people, and no conversation yet: alice has never heard from anyone. */
async function freshTeam() {
  const server = await startServer({ port: 0, demo: true, demoConversations: false });
  each.afterTest(() => server.close());
  return server;
}

/** The lines of the prompt's box between its text and its keys: the people offered. */
function offered(screen: string): string[] {
  const lines = screen.split("\n");
  const top = lines.findIndex((l) => l.includes("new conversation with:"));
  if (top < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(top + 1)) {
    // "▸" marks the one Enter starts.
    const inside = /│ [ ▸] (\S.*?)\s*│$/u.exec(line)?.[1];
    if (inside === undefined || line.includes("Esc cancels")) break;
    rows.push(inside);
  }
  return rows;
}

/** The people offered that are marked ▸ (the one Enter starts), by name. */
function markedRows(screen: string): string[] {
  const lines = screen.split("\n");
  const top = lines.findIndex((l) => l.includes("new conversation with:"));
  return lines
    .slice(top + 1)
    .map((line) => /│ ▸ (\S.*?)\s*│$/u.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

async function openPrompt(h: Harness, ready: string) {
  await h.waitFor((s) => s.includes(ready), "the list");
  await h.press("n");
  await h.waitFor((s) => s.includes("new conversation with:"), "the prompt");
}

/** A fresh team (freshTeam), and alice's `n` prompt open on it. */
async function promptOnFreshTeam() {
  const server = await freshTeam();
  const harness = await each.start({ server });
  await openPrompt(harness, "No conversations");
  return { server, harness };
}

/** Once the conversation with `name` is open: alice has that one conversation only. */
async function startedWith(harness: Harness, server: RunningServer, name: string) {
  await harness.waitFor((s) => s.includes(`Message ${name}`), `the conversation with ${name}`);
  const list = await apiFor(server).conversations.list();
  expect(list.data.map((c) => c.contact_id)).toEqual([`ct_${name}`]);
}

describe("the new-conversation prompt on parley's server", () => {
  it("offers the people the server knows, completes a name typed in part, and Enter starts it", async () => {
    const { server, harness } = await promptOnFreshTeam();
    // Before anything is typed: everyone else, alice left out.
    let screen = await harness.waitFor(
      (s) => offered(s).length === 5,
      "the server's people, before typing",
    );
    expect(offered(screen)).toEqual(["bob", "carol", "dave", "erin", "frank"]);
    expect(screen).not.toContain("ct_");

    await harness.type("er");
    screen = await harness.waitFor((s) => offered(s)[0] === "erin", "erin first for `er`");
    expect(offered(screen)).not.toContain("bob");
    // Tab picks the first (the harness draws no inverse without colours: Enter shows it).
    await harness.press(KEYS.tab);
    await harness.press(KEYS.enter);
    await startedWith(harness, server, "erin");
  });

  it("marks the name a part typed completes to, and Enter starts that one", async () => {
    const { server, harness } = await promptOnFreshTeam();
    await harness.type("fr");
    const screen = await harness.waitFor(
      (s) => offered(s)[0] === "frank" && markedRows(s).join() === "frank",
      "frank listed for `fr`, marked",
    );
    expect(screen).toContain("Enter starts the one marked ▸");
    await harness.press(KEYS.enter);
    await startedWith(harness, server, "frank");
    expect(harness.screen()).not.toContain("No one");
  });

  it("moves the mark with ↓ and ↑, and starts the one marked", async () => {
    const { harness } = await promptOnFreshTeam();
    // Nothing typed: nothing marked, and Enter starts nothing.
    await harness.waitFor((s) => offered(s).length === 5, "everyone listed");
    expect(markedRows(harness.screen())).toEqual([]);
    await harness.type("a");
    await harness.waitFor(
      (s) => offered(s).length > 1 && markedRows(s).join() === offered(s)[0],
      "the first marked",
    );
    const second = offered(harness.screen())[1]!;
    const first = offered(harness.screen())[0]!;
    await harness.press(KEYS.down);
    await harness.waitFor((s) => markedRows(s).join() === second, "the second marked");
    await harness.press(KEYS.up);
    await harness.waitFor((s) => markedRows(s).join() === first, "the first marked again");
    await harness.press(KEYS.down);
    await harness.waitFor((s) => markedRows(s).join() === second, "the second marked again");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes(`Message ${second}`),
      "the conversation with the second",
    );
  });

  it("completes a part typed and Entered in one read, before the list showed it", async () => {
    const { harness } = await promptOnFreshTeam();
    await harness.press("fr\r");
    await harness.waitFor((s) => s.includes("Message frank"), "the conversation with frank");
  });

  it("starts a conversation with a whole user name typed, without picking", async () => {
    const { server, harness } = await promptOnFreshTeam();
    // Enter in the same moment as the name: no pause for the completion to catch up.
    await harness.paste("Frank");
    await harness.press(KEYS.enter);
    await startedWith(harness, server, "frank");
  });

  it("says in one line that nobody has an unknown name, and keeps the prompt open", async () => {
    const { server, harness } = await promptOnFreshTeam();
    await harness.type("bobby");
    await harness.press(KEYS.enter);
    const screen = await harness.waitFor(
      (s) => s.includes('No one and no group of yours called "bobby" here'),
      "the unknown name",
    );
    expect(screen).not.toContain("No contact with id");
    expect(screen).toContain("new conversation with:");
    // Corrected, it goes.
    await harness.press(KEYS.backspace, KEYS.backspace);
    await harness.waitFor((s) => !s.includes("No one and no group"), "the line gone once typing");
    await harness.press(KEYS.enter);
    await startedWith(harness, server, "bob");
  });
});

describe("the new-conversation prompt on a team's server (parley users add)", () => {
  /** A server on a new database with alice and `others`, as an operator makes one. */
  async function team(others: string[]) {
    const dir = mkdtempSync(join(tmpdir(), "parley-team-"));
    each.afterTest(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, "server.db");
    await (await startServer({ db })).close();
    const token = (await runUsers(db, ["add", "alice"])).out.at(-1)!;
    for (const name of others) await runUsers(db, ["add", name]);
    const server = await startServer({ port: 0, db, demoReplies: false });
    each.afterTest(() => server.close());
    return { server, token, db };
  }

  it("asks the server for a name beyond the first people it listed", async () => {
    const members = Array.from({ length: 11 }, (_, i) => `member${String(i + 1).padStart(2, "0")}`);
    const { server, token } = await team([...members, "zoe"]);
    const harness = await each.start({ server, token, username: "alice" });
    await openPrompt(harness, "No conversations");
    await harness.waitFor((s) => offered(s)[0] === "member01", "the first people listed");
    await harness.type("zo");
    await harness.waitFor((s) => offered(s).join() === "zoe", "zoe, from the server");
    await harness.press(KEYS.down, KEYS.enter);
    await harness.waitFor((s) => s.includes("Message zoe"), "the conversation with zoe");
  });

  it("finds a group conversation by the group's name, and says when there is none", async () => {
    const { server, token, db } = await team(["bob"]);
    await runGroups(db, ["add", "team"], "alice,bob");
    const harness = await each.start({ server, token, username: "alice" });
    await openPrompt(harness, "No conversations");
    await harness.type("nope");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes('No one and no group of yours called "nope" here'),
      "neither a person nor a group",
    );
    await harness.press(KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace);
    await harness.type("team");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("Message #team") && !s.includes("new conversation with:"),
      "the group's conversation",
    );
    const list = await createApi({ baseUrl: server.url, token }).conversations.list();
    expect(list.data.map((c) => c.group_id)).toEqual(["grp_team"]);
  });

  it("says so when nobody else is there yet", async () => {
    const { server, token } = await team([]);
    const harness = await each.start({ server, token, username: "alice" });
    await openPrompt(harness, "No conversations");
    await harness.waitFor((s) => s.includes("nobody else here yet"), "an empty team");
  });
});

describe("the new-conversation prompt on a server without /v1/contacts", () => {
  it("offers the contacts seen in messages and starts one by name, asking nothing more", async () => {
    // The real server behind a relay that answers /v1/contacts as a foreign server does.
    const real = await startServer({ port: 0, demo: true, demoReplies: false });
    each.afterTest(() => real.close());
    const contactRequests: Seen[] = [];
    const front = await startForeignServer((req, res) => {
      if (req.url.startsWith("/v1/contacts")) {
        contactRequests.push(req);
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { type: "invalid_request", code: "not_found" } }));
        return;
      }
      void (async () => {
        const reply = await fetch(real.url + req.url, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: req.method === "GET" ? undefined : req.body,
        });
        res.writeHead(reply.status, { "content-type": reply.headers.get("content-type") ?? "" });
        res.end(await reply.text());
      })().catch(() => res.destroy());
    });
    each.afterTest(() => front.close());
    const harness = await each.start({ server: real, baseUrl: front.url });
    await openPrompt(harness, "#team");
    await harness.waitFor((s) => s.includes("someone seen in messages"), "the foreign hint");
    await harness.type("car");
    await harness.waitFor((s) => offered(s)[0] === "carol", "carol, seen in messages");
    await harness.type("ol");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("Message carol") && !s.includes("new conversation with:"),
      "the conversation with carol",
    );
    expect(contactRequests.length).toBeGreaterThan(0);
    // Only the first look: nothing typed was asked of a server that does not list people.
    expect(contactRequests.map((r) => r.url)).toEqual(
      contactRequests.map(() => "/v1/contacts?query=&limit=10"),
    );
  });
});
