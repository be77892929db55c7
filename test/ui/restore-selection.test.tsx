// Issue 40, trip 11: restored from Archived, a conversation is where `1` (All) lands: the
// selection stays on it, so the next `m` or `p` acts on it and never on another row.
import { describe, expect, it } from "vitest";
import { harnessEachTest } from "./harness.tsx";
import { apiFor, conversationWith, selectRow } from "./helpers.ts";

const each = harnessEachTest();

const selectedRow = (screen: string) =>
  screen.split("\n").find((line) => /^[│║]▸/.test(line)) ?? "";

describe("restoring from Archived, then All", () => {
  it("keeps the selection on the restored conversation, and m mutes it", async () => {
    const h = await each.start();
    const alice = apiFor(h.server);
    const team = await conversationWith(alice, "team");
    await alice.conversations.update(team.id, { archived_at: Math.floor(Date.now() / 1000) });
    await h.waitFor((s) => s.includes("● online") && s.includes("bob"), "the list");
    await h.press("4");
    await h.waitFor((s) => s.includes("#team"), "#team under Archived");
    await selectRow(h, "#team");
    await h.press("a");
    await h.waitFor((s) => s.includes("Restored #team."), "restored");
    await h.press("1");
    const screen = await h.waitFor(
      (s) => s.includes("#team") && /▸/.test(selectedRow(s)) && !s.includes("📦"),
      "All",
    );
    expect(selectedRow(screen)).toMatch(/▸#team\s/);
    await h.press("m");
    await h.waitFor((s) => s.includes("Muted #team."), "#team muted, not another");
    expect(selectedRow(h.screen())).toMatch(/▸🔕 #team\s/);
    expect((await conversationWith(alice, "bob")).is_muted).toBe(false);
  });
});
