// Issue 40's small trips (13), each where a person meets it: the pinned banner says "you"
// of your own message; "Deleted dave." goes once a conversation with dave starts again;
// the `n` prompt's keys are in the status bar, and its box is bordered on every row.
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
