// Issue 40, trip 11: restored from Archived, a conversation is where `1` (All) lands: the
// selection stays on it, so the next `m` or `p` acts on it and never on another row.
import { describe, expect, it } from "vitest";
import type { ConversationPages } from "../../src/ui/queries/cache.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { relayTo, startForeignServer } from "../api/foreign-server.ts";
import { listed } from "../list-cursor.ts";
import { until } from "../wait.ts";
import { harnessEachTest } from "./harness.tsx";
import { apiFor, conversationWith, selectRow, sidebarNames } from "./helpers.ts";

const each = harnessEachTest();

const selectedRow = (screen: string) =>
  screen.split("\n").find((line) => /^[│║]▸/.test(line)) ?? "";

describe("restoring from Archived, then All", () => {
  it.each([
    ["at once", false],
    ["once the cursor moved to the row that took its place", true],
  ])(
    "keeps the selection on the restored conversation (1 pressed %s), and m mutes it",
    async (_, settled) => {
      // Archived before the client starts: no list it loads has ever had #team.
      const server = await each.server();
      const alice = apiFor(server);
      const team = await conversationWith(alice, "team");
      await alice.conversations.update(team.id, { archived_at: Math.floor(Date.now() / 1000) });
      const h = await each.start({ server });
      await h.waitFor((s) => s.includes("● online") && s.includes("bob"), "the list");
      await h.press("4");
      await h.waitFor((s) => s.includes("#team"), "#team under Archived");
      await selectRow(h, "#team");
      await h.press("a");
      await h.waitFor((s) => s.includes("Restored #team."), "restored");
      if (settled) {
        await until(() => h.session.outbox.changes.get().length === 0, "the restore on the server");
        await h.waitFor((s) => /▸📦 /u.test(selectedRow(s)), "the cursor on the next archived row");
        // And Archived answered again without it: only All has it now, and All has not
        // been asked since. (On a loaded machine 1 came here, and the cursor went to bob.)
        await until(
          () =>
            !h.queryClient
              .getQueriesData<ConversationPages>({ queryKey: keys.conversations.lists() })
              .some(
                ([key, data]) =>
                  (key.at(-1) as { archived?: boolean }).archived &&
                  data?.pages.some((p) => p.data.some((c) => c.id === team.id)),
              ),
          "Archived answered without #team",
        );
      }
      await h.press("1");
      const screen = await h.waitFor(
        (s) => listed(s, "#team") && /▸/.test(selectedRow(s)) && !s.includes("📦"),
        "All",
      );
      expect(selectedRow(screen)).toMatch(/▸#team\s/);
      await h.press("m");
      await h.waitFor((s) => s.includes("Muted #team."), "#team muted, not another");
      expect(selectedRow(h.screen())).toMatch(/▸🔕 #team\s/);
      expect((await conversationWith(alice, "bob")).is_muted).toBe(false);
    },
  );

  it("keeps it when a acted on a row only shown as selected, a list still on its way", async () => {
    const server = await each.server();
    const alice = apiFor(server);
    const team = await conversationWith(alice, "team");
    await alice.conversations.update(team.id, { archived_at: Math.floor(Date.now() / 1000) });
    // All's unpinned rows are held back: a list on its way keeps the cursor where it is
    // drawn (the first row of Archived) without making that row the selection.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = false;
    const front = await startForeignServer((req, res) => {
      const unpinned = req.url.startsWith("/v1/conversations?") && req.url.includes("pinned=false");
      if (unpinned && !holding) {
        holding = true;
        void held.then(() => relayTo(server.url, req, res));
      } else void relayTo(server.url, req, res);
    });
    each.afterTest(() => front.close());
    const h = await each.start({ server, baseUrl: front.url });
    await h.waitFor((s) => listed(s, "bob"), "the pinned rows");
    await h.press("4");
    await h.waitFor((s) => sidebarNames(s)[0] === "#team", "#team first under Archived");
    expect(holding).toBe(true);
    await h.press("a");
    await h.waitFor((s) => s.includes("Restored #team."), "restored");
    await until(() => h.session.outbox.changes.get().length === 0, "the restore on the server");
    release();
    // Every list answered: the row that took #team's place is made the selection.
    await until(
      () => h.queryClient.isFetching({ queryKey: keys.conversations.lists() }) === 0,
      "the lists answered",
    );
    await h.waitFor((s) => /▸📦 /u.test(selectedRow(s)), "the cursor on the next archived row");
    await h.press("1");
    const screen = await h.waitFor(
      (s) => listed(s, "#team") && !s.includes("📦"),
      "All, with #team",
    );
    expect(selectedRow(screen)).toMatch(/▸#team\s/);
  });
});
