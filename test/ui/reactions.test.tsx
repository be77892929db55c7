// Reactions by name and who reacted: the picker's `:name` prompt with its completions,
// an unknown but valid name, and the who-reacted list, read from the screen and the server.
import { describe, expect, it } from "vitest";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, newestMessage, openFirst } from "./helpers.ts";

const each = harnessEachTest();

describe("reactions by name", () => {
  it("completes a typed short code, allows an unknown one, and shows who reacted", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    const bob = apiFor(harness.server, 1);
    const newest = await newestMessage(alice, "bob");
    // Bob has used a name node-emoji does not know: it completes here too.
    await bob.messages.update(newest!.id, { reactions: { partyparrot: ["bob"] } });
    await openFirst(harness, "bob");
    await harness.waitFor((s) => s.includes(":partyparrot: 1"), "bob's reaction");
    await harness.press(KEYS.escape, "r", ":");
    await harness.type("wav");
    let screen = await harness.waitFor((s) => s.includes("react :wav"), "the name prompt");
    expect(screen).toMatch(/react :wav .*👋 wave/u);
    expect(screen).toContain("wavy_dash");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("👋 1") && !s.includes("saving…"), "the reaction");

    // A name used in the conversation completes; Tab moves through the completions.
    await harness.press("r", ":");
    await harness.type("party");
    screen = await harness.waitFor((s) => s.includes("react :party"), "the prompt");
    expect(screen).toContain(":partyparrot:");
    // Backspace erases, and an empty name goes back to the row.
    await harness.press(KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace);
    await harness.press(KEYS.backspace, KEYS.backspace);
    await harness.waitFor((s) => s.includes("react  1👍"), "the row again");

    // An unknown but valid name is allowed: it is what Enter picks when nothing else fits.
    await harness.press(":");
    await harness.type("shipit_now");
    await harness.waitFor((s) => s.includes("react :shipit_now"), "the typed name");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes(":shipit_now: 1") && !s.includes("saving…"),
      "the unknown reaction",
    );
    const message = await alice.messages.get(newest!.id);
    expect(message.reactions).toEqual([
      { partyparrot: ["bob"] },
      { wave: ["alice"] },
      { shipit_now: ["alice"] },
    ]);

    // w: who reacted, with what; any key closes it.
    await harness.press("w");
    screen = await harness.waitFor((s) => s.includes(":partyparrot:  bob"), "who reacted");
    expect(screen).toContain("👋 :wave:  you");
    expect(screen).toContain(":shipit_now:  you");
    await harness.press("x");
    await harness.waitFor((s) => !s.includes(":partyparrot:  bob"), "the list closed");
  });
});
