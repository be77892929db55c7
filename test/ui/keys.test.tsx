// Keys that page and keys that must not act: Ctrl+D / Ctrl+U page half a pane in the lists
// and never delete or edit; the selection stays marked under a question about it; an error
// in the status bar fades after a while or at the next key.
import { describe, expect, it } from "vitest";
import { harnessEachTest, KEYS } from "./harness.tsx";
import {
  apiFor,
  markedLines,
  newestMessage,
  openFirst,
  sendOwn,
  sidebarCursor,
  sidebarNames,
} from "./helpers.ts";

const each = harnessEachTest();

const CTRL_D = "\x04";
const CTRL_U = "\x15";
const CTRL_E = "\x05";

describe("Ctrl+D and Ctrl+U", () => {
  it("page half the message pane and never delete or edit your own message", async () => {
    const harness = await each.start();
    await openFirst(harness, "#team");
    await sendOwn(harness, "mine to keep");
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => markedLines(s).includes("mine to keep"), "your message selected");

    await harness.press(CTRL_D, CTRL_E);
    const screen = harness.screen();
    expect(screen).not.toContain("Delete this message");
    expect(screen).not.toContain("editing");
    expect(markedLines(screen)).toContain("mine to keep");

    await harness.press("k");
    const oneUp = await harness.waitFor((s) => !markedLines(s).includes("mine"), "one up");
    await harness.press("k");
    const twoUp = await harness.waitFor((s) => markedLines(s) !== markedLines(oneUp), "two up");
    await harness.press("j");
    await harness.waitFor((s) => markedLines(s) === markedLines(oneUp), "one up again");
    await harness.press(CTRL_U);
    const paged = await harness.waitFor(
      (s) => markedLines(s) !== markedLines(oneUp),
      "half a page up",
    );
    expect(markedLines(paged)).not.toBe(markedLines(twoUp));
    await harness.press(CTRL_D);
    await harness.waitFor((s) => markedLines(s) === markedLines(oneUp), "half a page down, back");
  });

  it("move half the conversation list", async () => {
    const harness = await each.start({ rows: 30 });
    await harness.waitFor((s) => sidebarNames(s).length > 6 && sidebarCursor(s) === 0, "the list");
    await harness.press(CTRL_D);
    const down = await harness.waitFor((s) => sidebarCursor(s) > 1, "half the list down");
    expect(down).not.toContain("Delete");
    await harness.press(CTRL_U);
    await harness.waitFor((s) => sidebarCursor(s) === 0, "back at the top");
  });
});

describe("a new line in the composer", () => {
  it("comes with Ctrl+J, and with Shift+Enter as the kitty keyboard protocol sends it", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await harness.type("one");
    await harness.press("\n"); // Ctrl+J: a line feed
    await harness.type("two");
    await harness.press("\x1b[106;5u"); // Ctrl+J under the kitty protocol
    await harness.type("three");
    await harness.press("\x1b[13;2u"); // Shift+Enter under the kitty protocol
    await harness.type("four");
    const screen = await harness.waitFor((s) => s.includes("four"), "the draft");
    const rows = screen.split("\n");
    const at = (text: string) => rows.findIndex((l) => l.includes(`│ ${text}`));
    expect([at("one"), at("two"), at("three"), at("four")].map((r) => r - at("one"))).toEqual([
      0, 1, 2, 3,
    ]);
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("Message bob") && !s.includes("sending…"),
      "the composer empty again, the message sent",
    );
    const sent = await newestMessage(apiFor(harness.server), "bob");
    expect(sent?.message).toBe("one\ntwo\nthree\nfour");
  });
});

describe("the selection under a question", () => {
  it("stays marked while the delete question is up", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await sendOwn(harness, "which one is it");
    await harness.press(KEYS.escape, "d");
    const asking = await harness.waitFor(
      (s) => s.includes("Delete this message for everyone?"),
      "the question",
    );
    expect(markedLines(asking)).toContain("which one is it");
    await harness.press("n");
    await harness.waitFor((s) => s.includes("Kept."), "kept");
  });
});

describe("an error in the status bar", () => {
  /** Online, with the error `text` shown as if it had been on screen for `ageMs` already. */
  async function errorShown(text: string, ageMs: number) {
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("online"), "online");
    harness.session.status.notice.set({ kind: "error", text, at: Date.now() - ageMs });
    await harness.waitFor((s) => s.includes(`✗ ${text}`), "the error");
    return harness;
  }

  it("fades after 8 seconds", async () => {
    const harness = await errorShown("Could not send: boom", 7_700);
    await harness.waitFor(
      (s) => !s.includes("Could not send") && s.includes("↑↓ move"),
      "the hints back",
    );
  });

  it("goes at the next key once it has been seen", async () => {
    // Seen for a second: more than the half second that keeps a fresh error through a key.
    const harness = await errorShown("Could not pin: boom", 1_000);
    await harness.press("j");
    await harness.waitFor((s) => !s.includes("Could not pin") && s.includes("↑↓ move"), "gone");
  });
});
