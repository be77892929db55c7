// The server's 10,000 characters a message, met in the composer: the count shows near the
// limit, and Enter on a longer text keeps it there with its count instead of sending it.
import { describe, expect, it } from "vitest";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, openFirst } from "./helpers.ts";

const each = harnessEachTest();

describe("the composer near the message length limit", () => {
  it("counts near 10,000, keeps a longer text on Enter, and sends it once short enough", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    const alice = apiFor(harness.server);
    const chat = await conversationWith(alice, "bob");
    const before = (await alice.messages.list({ conversation_id: chat.id, limit: 100 })).data;

    await harness.paste("a".repeat(9_100));
    await harness.waitFor((s) => s.includes("aaaa"), "the paste in the composer");
    expect(harness.screen()).toContain("9,100 / 10,000 characters");
    // A second line, of 1,600: 10,701 in all with the line break.
    await harness.paste(`\n${"b".repeat(1_600)}`);
    await harness.waitFor(
      (s) => s.includes("10,701 / 10,000 characters: 701 too many to send"),
      "the count, past the limit",
    );

    await harness.press(KEYS.enter);
    const refused = await harness.waitFor(
      (s) => s.includes("✗ Not sent: it has 10,701 characters and a message holds at most 10,000"),
      "the one-line refusal, naming the count",
    );
    // Still in the composer, nothing on its way.
    expect(refused).toContain("10,701 / 10,000 characters");
    expect(refused).not.toContain("sending…");
    expect(refused).not.toContain("not sent ·");

    // Ctrl+U takes the second line away: below the limit (counted trimmed, as the server
    // counts), and it goes.
    await harness.press("\x15");
    await harness.waitFor(
      (s) => s.includes("9,100 / 10,000 characters") && !s.includes("bbbb"),
      "the second line gone",
    );
    await harness.type("end");
    await harness.waitFor((s) => s.includes("9,104 / 10,000 characters"), "the count under it");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => !s.includes("/ 10,000 characters") && !s.includes("sending…"),
      "sent: the composer empty",
    );
    const after = (await alice.messages.list({ conversation_id: chat.id, limit: 100 })).data;
    const sent = after.filter((m) => !before.some((b) => b.id === m.id));
    expect(sent.map((m) => m.message)).toEqual([`${"a".repeat(9_100)}\nend`]);
  });
});
