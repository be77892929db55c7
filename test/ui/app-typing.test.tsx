import { describe, expect, it } from "vitest";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, newestMessage, openFirst, sidebarNames } from "./helpers.ts";

const each = harnessEachTest();

describe("typing", () => {
  it("edits by grapheme and takes a bracketed paste of several lines as one draft", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    await openFirst(harness, "bob");
    await harness.type("ok 👍🏽");
    await harness.press(KEYS.backspace);
    await harness.waitFor((s) => /│ ok\s+│/.test(s), "the emoji removed whole");
    await harness.press(KEYS.backspace, KEYS.backspace, KEYS.backspace);
    await harness.paste("first line\r\nsecond line\rthird");
    await harness.waitFor(
      (s) => s.includes("first line") && s.includes("second line"),
      "a multi-line draft",
    );
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => !s.includes("sending…") && s.includes("third"),
      "the message sent",
    );
    const sent = await newestMessage(alice, "bob");
    expect(sent?.message).toBe("first line\nsecond line\nthird");
  });

  it("acts on every key of one read: a held key, and a dialog opened by the key before", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => /│▸📌 bob/u.test(s) && s.includes("#team"), "the list");
    await harness.press("jj"); // a held j arrives as one read
    await harness.waitFor((s) => /│▸#team/u.test(s), "two rows down");
    await harness.press("?j"); // open the help, then j scrolls it: the sidebar must not move
    await harness.waitFor((s) => s.includes("parley keys"), "the help");
    await harness.press("x");
    await harness.waitFor((s) => /│▸#team/u.test(s), "the help closed, the cursor where it was");
  });

  it("takes Esc and a letter in one read as Esc, then the letter (as over a slow link)", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await harness.press("\x1br"); // Esc to the messages, r to react
    await harness.waitFor(
      (s) => s.includes("1👍") && s.includes("Enter or 1-9 toggles your reaction"),
      "the reaction picker",
    );
  });

  it("takes Esc and ↑ in one read as Esc, then ↑ (what Ink reads as Alt+↑)", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await harness.press("\x1b\x1b[A");
    const marked = (s: string) => s.split("\n").filter((l) => /[│║]▌/.test(l));
    const screen = await harness.waitFor(
      (s) => marked(s).some((l) => l.includes("Ship it Friday?")),
      "the messages pane, one message up from the newest",
    );
    expect(marked(screen).join("\n")).not.toContain("QA signs off");
  });

  it("takes Esc and a letter in one read as Esc, then the letter, also when Esc closes a dialog", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.press("?");
    await harness.waitFor((s) => s.includes("parley keys"), "the help");
    await harness.press("\x1b/"); // Esc closes the help, / opens the search
    await harness.waitFor((s) => !s.includes("parley keys"), "the help closed");
    await harness.type("des");
    await harness.waitFor((s) => sidebarNames(s).join() === "#design", "the search, typed into");
  });

  it("takes text typed ahead in one read whole, and its Enter sends it", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    await openFirst(harness, "bob");
    await harness.press("typed ahead over a slow link\r");
    await harness.waitFor(
      (s) => s.includes("typed ahead over a slow link") && !s.includes("sending…"),
      "the message sent",
    );
    const sent = await newestMessage(alice, "bob");
    expect(sent?.message).toBe("typed ahead over a slow link");
  });
});
