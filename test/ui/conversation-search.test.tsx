// The sidebar's search: every conversation whatever the filter shown (archived ones
// marked 📦), by name, matching loosely and best match first.
import { describe, expect, it } from "vitest";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { sidebarNames } from "./helpers.ts";

const each = harnessEachTest();

describe("the conversation search", () => {
  it("finds an archived conversation from All, marked, and opens it with Enter", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => sidebarNames(s).includes("#team"), "the list");
    expect(sidebarNames(harness.screen())).not.toContain("#hiring");
    await harness.press("/");
    await harness.type("hir");
    const screen = await harness.waitFor(
      (s) => sidebarNames(s).join() === "#hiring",
      "only #hiring",
    );
    expect(screen).toMatch(/│▸📦 #hiring/u);
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("Message #hiring"), "#hiring open");
  });

  it("matches loosely, best first: tm finds #team, ra puts #random before frank", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => sidebarNames(s).includes("#team"), "the list");
    await harness.press("/");
    await harness.type("tm");
    await harness.waitFor((s) => sidebarNames(s)[0] === "#team", "#team first");
    expect(harness.screen()).toMatch(/│▸#team/u);
    await harness.press(KEYS.backspace, KEYS.backspace);
    await harness.type("ra");
    // A prefix (#random) before a match inside a word (frank).
    const names = sidebarNames(
      await harness.waitFor((s) => sidebarNames(s).includes("frank"), "frank found"),
    );
    expect(names[0]).toBe("#random");
    expect(names).not.toContain("#team");
    await harness.press(KEYS.escape);
    await harness.waitFor(
      (s) => sidebarNames(s).includes("#team") && !sidebarNames(s).includes("#hiring"),
      "the All list back",
    );
  });
});
