// Keys that arrive in one read (a key repeat, tmux send-keys, a fast typist over SSH) each
// count, in every pane and dialog: ↓↓↓ in one write moves three rows, and a dialog opened
// by the first key sees the rest.
import { describe, expect, it } from "vitest";
import { COMMON_REACTIONS } from "../../src/ui/messages/emoji.ts";
import { until } from "../wait.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import {
  apiFor,
  conversationWith,
  markedLines,
  newestMessage,
  openFirst,
  sidebarCursor,
  sidebarNames,
} from "./helpers.ts";

const each = harnessEachTest();

describe("keys that arrive in one read", () => {
  it("each move the list's cursor", async () => {
    const harness = await each.start();
    // Both lists in, the pinned rows on top and the others below them: they are two
    // lists, and the pinned coming in after the keys moved the cursor put two rows above.
    await harness.waitFor(
      (s) => /^│[▸ ]📌/u.test(s.split("\n")[3] ?? "") && sidebarNames(s).length > 6,
      "the whole list, the pinned rows on top",
    );
    await harness.waitFor((s) => sidebarCursor(s) === 0, "the first row selected");
    await harness.press(KEYS.down.repeat(3));
    await harness.waitFor((s) => sidebarCursor(s) === 3, "three rows down");
    await harness.press(`${KEYS.up}${KEYS.up}`);
    await harness.waitFor((s) => sidebarCursor(s) === 1, "two rows up");
  });

  it("each move the messages pane's selection", async () => {
    const harness = await each.start();
    await openFirst(harness, "#team");
    await harness.press(KEYS.escape);
    const newest = await harness.waitFor((s) => markedLines(s) !== "", "a message selected");
    // Three steps one at a time, to know where three in one read must land.
    let before = newest;
    for (let i = 0; i < 3; i++) {
      await harness.press("k");
      before = await harness.waitFor((s) => markedLines(s) !== markedLines(before), "one up");
    }
    const threeUp = markedLines(before);
    await harness.press("G");
    await harness.waitFor((s) => markedLines(s) === markedLines(newest), "back at the newest");
    await harness.press(KEYS.up.repeat(3));
    await harness.waitFor((s) => markedLines(s) === threeUp, "three up at once");
  });

  it("reach the link chooser the first key opened", async () => {
    const harness = await each.start();
    const bob = apiFor(harness.server, 1);
    const chat = await conversationWith(bob, "alice");
    await bob.messages.send({
      conversation_id: chat.id,
      message: "first https://one.example.com then https://two.example.com",
    });
    await openFirst(harness, "bob");
    await harness.waitFor((s) => s.includes("two.example.com"), "bob's links");
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => s.includes("y copy"), "the messages pane focused");
    await harness.press(`Y${KEYS.right}${KEYS.enter}`);
    await harness.waitFor(() => harness!.clipboard.length > 0, "a link copied");
    expect(harness.clipboard).toEqual(["https://two.example.com/"]);
  });

  it("reach the reaction picker the first key opened", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => s.includes("y copy"), "the messages pane focused");
    await harness.press(`r${KEYS.right}${KEYS.right}${KEYS.enter}`);
    const third = COMMON_REACTIONS[2]!;
    const alice = apiFor(harness.server, 0);
    await harness.waitFor((s) => !s.includes(": by name"), "the picker closed");
    await until(
      async () =>
        (await newestMessage(alice, "bob"))?.reactions.some((r) => r[third]?.includes("alice")),
      `alice's ${third} on the server`,
    );
  });
});
