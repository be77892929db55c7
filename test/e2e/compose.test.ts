// Issue 40's composer and list, met in the built `parley` in tmux against a real server:
// Tab completion, the mention mark with two people on one server, the key that hides the
// list, and the trips 7, 12 and 13 where a person meets them (a base URL beside the API
// with a kept cache, the Muted filter after an offline quit, the offline hint's command).
// Each screen is looked at at 120x40, 80x24 and 60x20.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApi } from "../../src/api/client.ts";
import { listed, moveTo } from "../list-cursor.ts";
import { clientIn, demoServerIn, keptFolders } from "./kept-home.ts";
import { beat, CLI, e2eEachTest, hasTmux, type Pane, startPane } from "./tmux.ts";

const cleanups = e2eEachTest();

const SIZES = [
  [120, 40],
  [80, 24],
  [60, 20],
] as const;

/** The status bar: the screen's last row that has anything on it. */
const statusBar = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";

/** Opens the conversation named `name` from the list (moving down to it). */
async function open(pane: Pane, name: string): Promise<void> {
  const row = new RegExp(`[│║]▸(?:\\S+\\s+)?${name}\\s`, "u");
  const cursor = (s: string) => s.split("\n").find((line) => /^[│║]▸/.test(line));
  await pane.waitFor(
    (s) => s.includes("● online") && s.includes(name) && cursor(s) !== undefined,
    `${name} listed, a row selected`,
    30_000,
  );
  // One row at a time, each once the screen shows the last (a loaded machine is slow).
  // The list may reorder as it loads (the pinned rows come above): go the way the row is.
  const lineOf = (s: string, test: (line: string) => boolean) => s.split("\n").findIndex(test);
  const isRow = (line: string) => new RegExp(`^[│║][ •▸](?:\\S+\\s+)?${name}\\s`, "u").test(line);
  for (let i = 0; i < 20 && !row.test(pane.screen()); i++) {
    // Its name in another row's preview is not its row: wait for the row (a list still
    // loading has not all its rows), never walk past the end looking for it.
    const screen = await pane.waitFor((s) => lineOf(s, isRow) >= 0, `${name}'s row`, 30_000);
    if (row.test(screen)) break;
    const before = cursor(screen);
    const target = lineOf(screen, isRow);
    const at = lineOf(screen, (line) => /^[│║]▸/.test(line));
    pane.send(target < at ? "k" : "j");
    await pane.waitFor((s) => cursor(s) !== before, "the cursor to move");
  }
  // The list can show before the client has finished starting (it may still be asking the
  // terminal what it supports): Enter again until the conversation opens.
  const opened = (s: string) => s.includes(`Message ${name}`);
  for (let i = 0; i < 10 && !opened(pane.screen()); i++) {
    pane.send("Enter");
    await pane.waitFor(opened, `${name} open`, 5000).catch(() => undefined);
  }
  await pane.waitFor(opened, `${name} open`, 30_000);
}

const demoServer = (dir: string) => demoServerIn(dir, cleanups);

/** A demo server and alice's client on it, in kept folders named after `prefix`, online. */
async function aliceOnline(prefix: string) {
  const { dir, home } = keptFolders(cleanups, prefix);
  const server = await demoServer(dir);
  const token = server.demoUsers[0]!.token;
  const first = clientIn(home, server.url, token, cleanups);
  await first.waitFor((s) => s.includes("● online") && s.includes("#team"), "the list", 30_000);
  return { home, server, token, first };
}

describe.skipIf(!hasTmux())("the composer and the list, in tmux", () => {
  it("completes @names and :emoji: with Tab, at every size", async () => {
    const { dir, home } = keptFolders(cleanups, "parley-compose");
    const server = await demoServer(dir);
    const pane = clientIn(home, server.url, server.demoUsers[0]!.token, cleanups);
    await open(pane, "bob");
    for (const [columns, rows] of SIZES) {
      pane.resize(columns, rows);
      pane.type("hi @ca");
      const screen = await pane.waitFor((s) => s.includes("@carol") && s.includes("Tab"), "@carol");
      // The list is the row above the composer's top border.
      const lines = screen.split("\n");
      const box = lines.findLastIndex((line) => line.includes("╭") && !line.includes("hi @ca"));
      expect(lines[box - 1] ?? lines[box]).toContain("@carol");
      pane.send("Tab");
      await pane.waitFor((s) => s.includes("hi @carol "), `@carol taken at ${columns}x${rows}`);
      pane.type(":tad");
      await pane.waitFor((s) => s.includes(":tada:"), "tada offered");
      pane.send("Enter");
      await pane.waitFor((s) => s.includes("hi @carol 🎉 "), "the emoji taken, nothing sent");
      pane.send("C-u");
      await pane.waitFor((s) => !s.includes("hi @carol"), "the draft cleared");
    }
    const api = createApi({ baseUrl: server.url, token: server.demoUsers[0]!.token });
    const sent = await api.messages.list({ limit: 5 });
    expect(sent.data.some((m) => m.message.includes("hi @carol"))).toBe(false);
  }, 120_000);

  it("marks the row of a message naming you, sent by another person's client", async () => {
    const { dir, home } = keptFolders(cleanups, "parley-mention");
    const bobHome = keptFolders(cleanups, "parley-mention-bob").home;
    const server = await demoServer(dir);
    const alice = clientIn(home, server.url, server.demoUsers[0]!.token, cleanups);
    const bob = clientIn(bobHome, server.url, server.demoUsers[1]!.token, cleanups);
    await alice.waitFor((s) => s.includes("● online") && s.includes("#launch"), "alice's list");
    await open(bob, "#launch");
    bob.type("@ali");
    await bob.waitFor((s) => s.includes("@alice"), "bob's completion of alice");
    bob.send("Tab");
    // The completion's row gone: "@alice " alone is also in its " @alice · Tab/Enter takes".
    await bob.waitFor(
      (s) => s.includes("@alice ") && !s.includes("Tab/Enter takes"),
      "bob's Tab taken",
    );
    bob.type("ready to ship?");
    await bob.waitFor((s) => s.includes("@alice ready to ship?"), "bob's draft");
    bob.send("Enter");
    for (const [columns, rows] of SIZES) {
      alice.resize(columns, rows);
      const screen = await alice.waitFor(
        (s) => /#launch\s+\S+ @●\d/u.test(s),
        `the mention mark at ${columns}x${rows}`,
        30_000,
      );
      expect(screen).not.toMatch(/#design\s+\S+ @●/u);
    }
  }, 120_000);

  it("hides and shows the list with s, at every size", async () => {
    const { dir, home } = keptFolders(cleanups, "parley-sidebar");
    const server = await demoServer(dir);
    const pane = clientIn(home, server.url, server.demoUsers[0]!.token, cleanups);
    await open(pane, "bob");
    pane.send("Escape");
    await beat();
    for (const [columns, rows] of SIZES) {
      pane.resize(columns, rows);
      await pane.waitFor((s) => s.includes("1 All"), `the list at ${columns}x${rows}`);
      pane.send("s");
      const hidden = await pane.waitFor((s) => !s.includes("1 All"), "the list hidden");
      // The messages take the whole width: their border runs from the first column.
      expect(hidden.split("\n")[1]).toMatch(new RegExp(`^╭─{${columns - 2}}╮`));
      pane.send("s");
      await pane.waitFor((s) => s.includes("1 All"), "the list back");
    }
    // At 60x20 the list takes a third, its tabs still there.
    const narrow = pane.screen();
    expect(narrow.split("\n")[1]).toMatch(/^╭─{18}╮╭/);
    expect(narrow).toContain("1 All 2P 3M 4A");
  }, 120_000);

  it("restored from Archived, 1 keeps it selected; Esc clears a search; the n prompt", async () => {
    const { dir, home } = keptFolders(cleanups, "parley-trips");
    const server = await demoServer(dir);
    const token = server.demoUsers[0]!.token;
    const api = createApi({ baseUrl: server.url, token });
    const team = (await api.conversations.list({ limit: 100 })).data.find(
      (c) => c.group_id === "grp_team",
    )!;
    await api.conversations.update(team.id, { archived_at: Math.floor(Date.now() / 1000) });
    const pane = clientIn(home, server.url, token, cleanups);
    await pane.waitFor((s) => s.includes("● online") && s.includes("bob"), "the list", 30_000);

    // Trip 11: 4, #team, a (restore), 1: the selection is on #team, and m mutes it.
    pane.send("4");
    await pane.waitFor((s) => /[│║]▸📦 #team\s/u.test(s), "#team selected under Archived");
    pane.send("a");
    await pane.waitFor((s) => s.includes("Restored #team."), "restored");
    pane.send("1");
    await pane.waitFor((s) => /[│║]▸#team\s/u.test(s), "#team still selected under All");
    pane.send("m");
    await pane.waitFor((s) => s.includes("Muted #team."), "m on #team");
    const bob = (await api.conversations.list({ limit: 100 })).data.find(
      (c) => c.contact_id === "ct_bob",
    )!;
    expect(bob.is_muted).toBe(false);

    // Esc clears a conversation search kept after Enter.
    pane.send("/");
    await beat();
    pane.type("des");
    await pane.waitFor((s) => s.includes("▸📌 #design") || s.includes("▸#design"), "#design");
    pane.send("Enter");
    await pane.waitFor((s) => s.includes("Message #design"), "#design open");
    pane.send("Escape");
    await beat();
    pane.send("BTab");
    await pane.waitFor(
      (s) => s.includes("Esc clears") && s.includes("↑↓ move"),
      "the search kept, the list focused",
    );
    pane.send("Escape");
    await pane.waitFor((s) => !s.includes("Esc clears") && listed(s, "bob"), "the whole list");

    // The n prompt: its keys in the status bar, its box bordered, at every size.
    for (const [columns, rows] of SIZES) {
      pane.resize(columns, rows);
      pane.send("n");
      await pane.waitFor((s) => s.includes("new conversation with:"), "the prompt");
      pane.type("fr");
      // The prompt's keys, once the last action's notice ("Muted #team.") has faded.
      const screen = await pane.waitFor(
        (s) => s.includes("▸ frank") && statusBar(s).includes("new conversation ·"),
        `frank, and the prompt's keys, at ${columns}x${rows}`,
        20_000,
      );
      // Under the prompt's bottom border is the status bar: no row of the box unbordered.
      const lines = screen.trimEnd().split("\n");
      expect(lines.at(-2)).toMatch(/╰─+╯$/);
      pane.send("Escape");
      await pane.waitFor((s) => !s.includes("new conversation with:"), "the prompt closed");
    }
  }, 120_000);

  it("says at once that a base URL ending in /v1 is beside the API, with a kept cache", async () => {
    const { home, server, token, first } = await aliceOnline("parley-v1");
    first.send("q");
    await first.waitFor((s) => s.includes("EXITED=0"), "quit");
    const wrong = clientIn(home, `${server.url}/v1`, token, cleanups);
    for (const [columns, rows] of SIZES) {
      wrong.resize(columns, rows);
      const screen = await wrong.waitFor(
        (s) => statusBar(s).includes("No API at this base URL"),
        `the wrong base URL said at ${columns}x${rows}`,
        30_000,
      );
      expect(screen).not.toContain("connecting…");
      // What to try, whole, at 60 columns too.
      expect(statusBar(screen)).toContain("No API at this base URL (404): drop /v1 or /api");
    }
  }, 120_000);

  it("offline after a quit: Muted and Archived from the lists kept, the hint names npm start and --base-url", async () => {
    const { home, server, token, first } = await aliceOnline("parley-offline-muted");
    await server.close();
    await first.waitFor((s) => s.includes("offline"), "offline");
    first.send("q");
    await first.waitFor((s) => s.includes("EXITED=0"), "quit offline");
    const second = clientIn(home, server.url, token, cleanups);
    await second.waitFor((s) => s.includes("#team") && s.includes("last synced"), "kept list");
    second.send("3");
    for (const [columns, rows] of SIZES) {
      second.resize(columns, rows);
      const muted = await second.waitFor(
        (s) => s.includes("#lunch") && s.includes("#random") && !s.includes("#team"),
        `Muted from the kept list at ${columns}x${rows}`,
      );
      expect(muted).not.toContain("loading…");
      // The whole of All is kept (one page), so Muted is whole too: not said to be partial.
      expect(muted).not.toContain("may be partial");
    }

    // Archived is not in All, and none was seen: said plainly, not "loading…" for good.
    second.send("4");
    for (const [columns, rows] of SIZES) {
      second.resize(columns, rows);
      const archived = await second.waitFor(
        // Wrapped in the list's width: the words, whatever lines they fall on.
        (s) =>
          /not loaded yet:[\s│]+shown[\s│]+when[\s│]+the[\s│]+server[\s│]+is[\s│]+back/u.test(s),
        `Archived not loaded at ${columns}x${rows}`,
      );
      expect(archived).not.toContain("loading…");
    }
    // Archived offline (queued), #team is under Archived at once, among the rows kept.
    second.send("1");
    await second.waitFor((s) => s.includes("1 All") && !s.includes("not loaded yet"), "All");
    second.send("g");
    await moveTo(
      { screen: second.screen, down: () => second.send("j"), waitFor: second.waitFor },
      "#team",
    );
    second.send("a");
    await second.waitFor((s) => !/[│║][ •▸]#team\s/u.test(s), "#team archived, out of All");
    second.send("4");
    const archived = await second.waitFor(
      (s) => /[│║][ •▸]📦 #team\s/u.test(s),
      "#team under Archived, from the rows kept",
    );
    expect(archived).toContain("may be partial");
    expect(archived).not.toContain("not loaded yet");

    // A first start against no server, from this clone with --base-url: the notice says
    // the command that works here, and the flag used.
    const fresh = keptFolders(cleanups, "parley-offline-hint").home;
    const pane = startPane({
      command: `node ${JSON.stringify(CLI)} --base-url ${server.url}`,
      home: fresh,
      env: { PARLEY_TOKEN: token, XDG_CACHE_HOME: join(fresh, "cache") },
    });
    cleanups.push(() => pane.kill());
    const hint = await pane.waitFor(
      (s) => s.includes("Start one with"),
      "the offline notice",
      30_000,
    );
    expect(hint).toContain("`npm start -- serve --demo`");
    expect(hint).toContain("point --base-url elsewhere");
  }, 120_000);
});
