// The search and new-conversation prompts edit as the composer does: by grapheme, with its
// editing keys, every key of one read applied; and when a prompt closes, the keys go where
// they belong at once.
import { describe, expect, it } from "vitest";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import { sidebarNames } from "./helpers.ts";

const each = harnessEachTest();

const CTRL_A = "\x01";
const CTRL_E = "\x05";
const CTRL_U = "\x15";

/** The search prompt's line, from "/" to the sidebar's edge. */
const searchLine = (s: string) =>
  /^[│║]\/ (.*?)\s*[│║]/mu.exec(s)?.[1]?.replace(/\s+$/u, "") ?? undefined;
/** The new-conversation prompt's text. */
const idLine = (s: string) => /new conversation with: (.*?)\s*│/u.exec(s)?.[1];

/** Searches the list for "des" and opens the one match, #design, with Enter. */
async function openBySearch(harness: Harness): Promise<void> {
  await harness.waitFor((s) => s.includes("#team"), "the list");
  await harness.press("/");
  await harness.type("des");
  await harness.waitFor((s) => sidebarNames(s).join() === "#design", "only #design");
  await harness.press(KEYS.enter);
}

describe("the search prompt", () => {
  it("edits by grapheme, with the composer's keys, every key of one read", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.press("/");
    await harness.type("bo👍🏽");
    await harness.waitFor((s) => searchLine(s) === "bo👍", "the emoji typed");
    await harness.press(KEYS.backspace);
    let screen = await harness.waitFor((s) => searchLine(s) === "bo", "the emoji gone whole");
    expect(screen).not.toContain("�");
    // Every conversation is searched, loosely: bob first, then #books (archived).
    expect(sidebarNames(screen)[0]).toBe("bob");

    await harness.press(CTRL_A);
    await harness.type("x");
    await harness.waitFor((s) => searchLine(s) === "xbo", "Ctrl+A to the start");
    await harness.press(CTRL_E, CTRL_U);
    await harness.waitFor(
      (s) => searchLine(s)?.trim().startsWith("any conversation by name") === true,
      "Ctrl+U to the start",
    );

    await harness.type("#team");
    await harness.waitFor((s) => searchLine(s) === "#team", "#team typed");
    await harness.press("\x7f\x7f\x7f");
    screen = await harness.waitFor((s) => searchLine(s) === "#t", "three Backspaces in one read");
    expect(sidebarNames(screen)).toContain("#team");
  });

  it("gives the keys back at once after Enter on a match: Tab, Shift+Tab and Esc", async () => {
    const harness = await each.start();
    await openBySearch(harness);
    await harness.waitFor(
      (s) => s.includes("Message #design"),
      "#design open, the composer focused",
    );
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => s.includes("↑↓ select"), "Esc: the messages");
    await harness.press(KEYS.shiftTab);
    const sidebar = await harness.waitFor((s) => s.includes("↑↓ move"), "Shift+Tab: the sidebar");
    // The search still filters, and says how to change it or show all.
    expect(sidebarNames(sidebar)).toEqual(["#design"]);
    expect(sidebar).toContain("/ des · / changes · Esc clears");
    await harness.press(KEYS.tab);
    await harness.waitFor((s) => s.includes("↑↓ select"), "Tab: the messages");
    await harness.press(KEYS.tab);
    await harness.waitFor((s) => s.includes("Ctrl+J newline"), "Tab: the composer");
    await harness.press(KEYS.shiftTab, KEYS.shiftTab, "1");
    await harness.waitFor((s) => sidebarNames(s).includes("#team"), "1: the whole list");
  });

  it("Esc in the list clears a search kept after Enter (issue 40, trip 13)", async () => {
    const harness = await each.start();
    await openBySearch(harness);
    await harness.waitFor((s) => s.includes("Message #design"), "#design open");
    await harness.press(KEYS.shiftTab, KEYS.shiftTab);
    await harness.waitFor((s) => s.includes("↑↓ move"), "the sidebar");
    await harness.press(KEYS.escape);
    const screen = await harness.waitFor(
      (s) => sidebarNames(s).includes("#team") && !s.includes("Esc clears"),
      "the whole list again",
    );
    // Still in the list, on the conversation the search found.
    expect(screen).toContain("↑↓ move");
    expect(screen).toMatch(/▸(?:\S+ )?#design\s/u);
  });
});

describe("the new-conversation prompt", () => {
  it("edits by grapheme, with the composer's keys", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.press("n");
    await harness.waitFor((s) => s.includes("new conversation with:"), "the prompt");
    await harness.type("ct_bo👍🏽");
    await harness.press(KEYS.backspace);
    let screen = await harness.waitFor((s) => idLine(s) === "ct_bo", "the emoji gone whole");
    expect(screen).not.toContain("�");
    await harness.press(CTRL_A);
    await harness.type("x");
    await harness.waitFor((s) => idLine(s) === "xct_bo", "Ctrl+A to the start");
    await harness.press(CTRL_E, "\x7f\x7f\x7f");
    await harness.waitFor((s) => idLine(s) === "xct", "three Backspaces in one read");
    await harness.press(CTRL_U);
    screen = await harness.waitFor(
      (s) => idLine(s)?.trim() === "a person's or a group's name",
      "Ctrl+U to the start",
    );
    await harness.press(KEYS.escape);
    screen = await harness.waitFor((s) => !s.includes("new conversation with:"), "closed");
    await harness.press("j");
    expect(sidebarNames(screen).length).toBeGreaterThan(1);
  });
});
