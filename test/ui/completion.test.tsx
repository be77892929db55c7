// Tab completion in the composer, as a person meets it: `@` and the start of a name shows
// the list above the composer, the conversation's people first; the marked choice (in
// inverse) is the one Tab or Enter takes; ↓ marks the next; Esc closes the list and leaves
// the text; `:` and two letters of an emoji's name offer emoji.
import { describe, expect, it } from "vitest";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, openFirst, trueColourForFile } from "./helpers.ts";

const each = harnessEachTest();

trueColourForFile();

/** The row just above the composer's top border. */
function listRow(screen: string): string {
  const lines = screen.split("\n");
  const top = lines.findLastIndex((line) => /[╭╔]─/.test(line.split("│").slice(2).join("│")));
  return lines[top - 1] ?? "";
}

const marked = (h: Awaited<ReturnType<typeof each.start>>, text: string) =>
  h.looks(text).some((look) => look.inverse);

/** The status bar: the screen's last row that has anything on it. */
const statusBar = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";

describe("completion in the composer", () => {
  it("has the status bar say the list's keys while it shows, the composer's after", async () => {
    const h = await each.start();
    await openFirst(h, "carol");
    await h.waitFor((s) => statusBar(s).includes("Enter send"), "the composer's keys");
    await h.type("hi @ca");
    const open = await h.waitFor((s) => /│ @carol\b/.test(listRow(s)), "the list, opened");
    expect(statusBar(open)).toContain("Tab/Enter takes · ↑↓ choose · Esc closes");
    expect(statusBar(open)).not.toContain("Enter send");
    await h.press(KEYS.escape);
    const closed = await h.waitFor((s) => !/│ @carol\b/.test(listRow(s)), "the list, closed");
    expect(statusBar(closed)).toContain("Enter send");
    expect(statusBar(closed)).not.toContain("Tab/Enter takes");
  });

  it("offers the conversation's people first, and Tab takes the marked one", async () => {
    const h = await each.start();
    await openFirst(h, "carol");
    await h.type("hi @");
    const screen = await h.waitFor((s) => s.includes("Tab/Enter takes"), "the list, opened");
    // carol is the other person in the conversation: first, and marked.
    expect(listRow(screen)).toMatch(/^│\s+│ @carol {2}@/);
    expect(listRow(screen)).not.toContain("@alice");
    expect(marked(h, "@carol")).toBe(true);
    await h.type("d");
    await h.waitFor((s) => /│ @dave\b/.test(listRow(s)), "dave, for @d");
    await h.press(KEYS.tab);
    await h.waitFor(
      (s) => s.includes("hi @dave ") && !s.includes("Tab/Enter takes"),
      "@dave in the draft, the list closed",
    );
  });

  it("↓ marks the next, Enter takes it and does not send; Esc closes the list", async () => {
    const h = await each.start();
    await openFirst(h, "#team");
    const alice = apiFor(h.server);
    const team = await conversationWith(alice, "team");
    const before = (await alice.messages.list({ conversation_id: team.id, limit: 1 })).data[0];
    await h.type("@");
    let screen = await h.waitFor((s) => s.includes("Tab/Enter takes"), "the list");
    const names = [...listRow(screen).matchAll(/@(\w+)/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(2);
    await h.press(KEYS.down);
    await h.waitFor(() => marked(h, `@${names[1]}`), "the second marked");
    await h.press(KEYS.enter);
    screen = await h.waitFor((s) => s.includes(`│ @${names[1]} `), "the second taken");
    expect(screen).not.toContain("Tab/Enter takes");
    expect((await alice.messages.list({ conversation_id: team.id, limit: 1 })).data[0]?.id).toBe(
      before?.id,
    );

    await h.type("and @b");
    await h.waitFor((s) => listRow(s).includes("@bob"), "bob offered");
    await h.press(KEYS.escape);
    screen = await h.waitFor((s) => !s.includes("Tab/Enter takes"), "the list closed");
    // Still typing in the composer, the text as typed.
    expect(screen).toContain(`@${names[1]} and @b`);
    expect(screen).toContain("Enter send");
    // Tab on the word again: bob is the only choice, so it is taken at once.
    await h.press(KEYS.tab);
    await h.waitFor((s) => s.includes("and @bob "), "@bob by Tab");
  });

  it("completes :emoji names to the emoji, and Tab with nothing to complete changes pane", async () => {
    const h = await each.start();
    await openFirst(h, "bob");
    await h.type("ship it :tad");
    const screen = await h.waitFor((s) => listRow(s).includes(":tada:"), "tada offered");
    expect(listRow(screen)).toContain("🎉 :tada:");
    await h.press(KEYS.tab);
    await h.waitFor((s) => s.includes("ship it 🎉 "), "the emoji in the draft");
    // "10:30" opens nothing; Tab then goes on to the next pane, as before.
    await h.type("at 10:30");
    await h.press(KEYS.tab);
    await h.waitFor((s) => !s.includes("Enter send") && s.includes("at 10:30"), "the next pane");
  });
});
