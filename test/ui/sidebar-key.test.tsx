// `s` hides the conversation list and shows it again, as a person meets it: the messages
// take the whole width, Tab no longer lands on the hidden list, a filter key brings it back;
// and on a 60-column terminal the list takes a third, its tabs still readable.
import { describe, expect, it } from "vitest";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { openFirst, paneText } from "./helpers.ts";

const each = harnessEachTest();

const hasSidebar = (screen: string) => screen.includes("1 All 2 P") || screen.includes("1 All 2P");

describe("the sidebar key", () => {
  it("hides and shows the list; Tab skips it while hidden; a filter key shows it", async () => {
    const h = await each.start({ columns: 100, rows: 30 });
    await openFirst(h, "bob");
    await h.press(KEYS.escape);
    await h.waitFor((s) => s.includes("↑↓ select"), "the messages focused");
    await h.press("s");
    let screen = await h.waitFor((s) => !hasSidebar(s), "the list hidden");
    expect(screen).toContain("The list is hidden: s shows it.");
    // The messages pane's border starts at the left edge and spans the width.
    expect(screen.split("\n")[1]).toMatch(/^╭─{98}╮$/);
    // Tab goes messages → composer → messages, never to the hidden list.
    await h.press(KEYS.tab);
    await h.waitFor((s) => s.includes("Enter send"), "the composer");
    await h.press(KEYS.tab);
    screen = await h.waitFor((s) => s.includes("↑↓ select"), "the messages again");
    expect(hasSidebar(screen)).toBe(false);
    await h.press("s");
    await h.waitFor((s) => hasSidebar(s), "the list back");
    await h.press("s");
    await h.waitFor((s) => !hasSidebar(s), "hidden again");
    await h.press("3");
    screen = await h.waitFor((s) => hasSidebar(s) && s.includes("#lunch"), "Muted shows it");
    expect(screen).toContain("↑↓ move");
  });

  it("says why when nothing is open, and keeps the list", async () => {
    const h = await each.start({ columns: 100, rows: 30 });
    await h.waitFor((s) => s.includes("● online") && s.includes("bob"), "the list");
    await h.press("s");
    const screen = await h.waitFor((s) => s.includes("Open a conversation first"), "the note");
    expect(hasSidebar(screen)).toBe(true);
  });

  it("takes a third of a 60-column terminal", async () => {
    const h = await each.start({ columns: 60, rows: 20 });
    const screen = await h.waitFor((s) => s.includes("● online") && s.includes("bob"), "the list");
    expect(screen.split("\n")[1]).toMatch(/^╭─{18}╮╭/);
    expect(screen).toContain("1 All 2P 3M 4A");
    expect(paneText(screen)).toContain("No conversation open");
  });
});
