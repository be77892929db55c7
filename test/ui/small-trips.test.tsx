// Issue 40's small trips (13), each where a person meets it: the pinned banner says "you"
// of your own message; "Deleted dave." goes once a conversation with dave starts again;
// the `n` prompt's keys are in the status bar, and its box is bordered on every row; the
// reaction bar's hint is whole or left out, at 120, 80 and 60 columns; the help at 60x20
// cuts nothing it says.
import { describe, expect, it } from "vitest";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, openFirst, selectRow, sidebarNames } from "./helpers.ts";

const each = harnessEachTest();

const statusBar = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";

describe("the small trips", () => {
  it("calls your own pinned message yours", async () => {
    const h = await each.start();
    const alice = apiFor(h.server);
    const bob = await conversationWith(alice, "bob");
    const mine = await alice.messages.send({ conversation_id: bob.id, message: "ship it friday" });
    await alice.conversations.update(bob.id, { pinned_message_id: mine.id });
    await openFirst(h, "bob");
    const screen = await h.waitFor((s) => s.includes("📌 ship it friday"), "the banner");
    expect(screen).toContain("📌 ship it friday — you");
  });

  it('clears "Deleted dave." once a conversation with dave starts again', async () => {
    const h = await each.start();
    await h.waitFor((s) => sidebarNames(s).includes("dave"), "the list");
    await selectRow(h, "dave");
    await h.press("D");
    await h.waitFor((s) => s.includes("for both of you?"), "the question");
    await h.press("y");
    await h.waitFor((s) => s.includes("Deleted dave."), "deleted");
    await h.press("n");
    await h.waitFor((s) => s.includes("new conversation with:"), "the prompt");
    await h.type("dave");
    await h.waitFor((s) => s.includes("▸ dave"), "dave marked");
    await h.press(KEYS.enter);
    const screen = await h.waitFor((s) => s.includes("Message dave"), "the new conversation");
    expect(screen).not.toContain("Deleted dave.");
  });

  it("shows the reaction bar's hint whole or not at all, at every width", async () => {
    const h = await each.start();
    await openFirst(h, "#team");
    await h.press(KEYS.escape);
    for (const [columns, rows] of [
      [120, 40],
      [80, 24],
      [60, 20],
    ] as const) {
      await h.resize(columns, rows);
      await h.press("r");
      const screen = await h.waitFor((s) => /│\s*react /u.test(s), `the bar at ${columns}`);
      const line = screen.split("\n").find((l) => /│\s*react /u.test(l)) ?? "";
      const bar = line.split("││")[1] ?? line;
      // Either the whole hint, or none of it (the status bar says the keys in full).
      const hint = "←→ Enter · Esc · : by name";
      if (bar.includes(hint)) expect(bar).not.toMatch(/by name\S/u);
      else expect(bar).not.toMatch(/←|Enter|Esc|by n/u);
      // The status bar says them in full where they fit (120 columns).
      if (columns === 120) expect(statusBar(screen)).toContain("Esc closes");
      await h.press(KEYS.escape);
      await h.waitFor((s) => !/│\s*react /u.test(s), "the bar closed");
    }
  });

  it("shows the help at 60x20 with nothing cut", async () => {
    const h = await each.start({ columns: 60, rows: 20 });
    await h.waitFor((s) => sidebarNames(s).length > 0, "the list");
    await h.press("?");
    const screen = await h.waitFor((s) => s.includes("parley keys"), "the help");
    // The help's rows, inside its border: no word cut short with an ellipsis.
    const body = screen.split("\n").slice(1, -1);
    expect(body.filter((line) => line.includes("…"))).toEqual([]);
    expect(statusBar(screen)).toContain("any other key closes");
  });

  it("shows the n prompt's keys, and borders every row of its box", async () => {
    const h = await each.start({ columns: 80, rows: 24 });
    await openFirst(h, "bob");
    await h.press(KEYS.escape);
    await h.press("n");
    await h.waitFor((s) => s.includes("new conversation with:"), "the prompt");
    await h.type("fr");
    const screen = await h.waitFor((s) => s.includes("▸ frank") && !s.includes("▸ bob"), "frank");
    expect(statusBar(screen)).toContain("new conversation · ↑↓ Tab pick a person");
    // The main column, from the prompt's top border to the status bar: each row is inside
    // the box's border or is one of its borders.
    const right = screen
      .split("\n")
      .map((line) => line.replace(/^[│╭╰║╔╚].*?[│╮╯║╗╝](?=[│╭╰║╔╚])/u, "").trimEnd());
    const top = right.findIndex((line) => line.includes("new conversation with:")) - 1;
    const rows = right.slice(top, -1);
    expect(rows[0]).toMatch(/^╭─+╮$/);
    expect(rows.at(-1)).toMatch(/^╰─+╯$/);
    for (const row of rows.slice(1, -1)) expect(row).toMatch(/^│.*│$/);
  });
});
