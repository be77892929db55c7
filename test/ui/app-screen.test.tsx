import { describe, expect, it } from "vitest";
import { until } from "../wait.ts";
import { harnessEachTest, KEYS, startHarness } from "./harness.tsx";
import { apiFor, conversationWith, firstInboxAnswer, openFirst } from "./helpers.ts";

const each = harnessEachTest();

describe("the screen", () => {
  it("shows every key in the help overlay, and any key closes it", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.press("?");
    const first = await harness.waitFor((s) => s.includes("parley keys"), "help");
    // A page down or two, to its end.
    let help = first;
    for (let page = 0; page < 5 && !help.includes("(end)"); page++) {
      const before = harness.screen();
      await harness.press(KEYS.pageDown);
      help += await harness.waitFor((s) => s !== before, "the next page of the help");
    }
    expect(help).toContain("(end)");
    for (const text of [
      "Tab / Shift+Tab",
      "filter: All, Pinned, Muted, Archived",
      "react (again on the same one removes yours)",
      "copy the text",
      "Ctrl+W, Ctrl+U, Ctrl+K",
      "quit",
    ]) {
      expect(help).toContain(text);
    }
    await harness.press("x");
    await harness.waitFor((s) => !s.includes("parley keys"), "help closed");
  });

  it("draws the whole screen again with Ctrl+L", async () => {
    const harness = await each.start();
    await harness.waitFor(
      (s) => s.includes("● online") && s.includes("●2") && s.includes("bob: confirmed, thanks"),
      "the list",
    );
    const written = harness.written().length;
    await harness.press(KEYS.ctrlL);
    // From a clean screen, a whole frame, not a diff: every row of the list comes again.
    const redraw = () => {
      const after = harness!.written().slice(written);
      return after.slice(Math.max(0, after.lastIndexOf("\x1b[2J")));
    };
    await harness.waitFor(
      () => /^\x1b\[2J[\s\S]*#team[\s\S]*#oncall/.test(redraw()),
      "a clean screen, then a whole frame",
    );
    // What was drawn since the clean screen, alone on a blank terminal, is the whole screen.
    // Compared with itself, not with the screen before: a minute that turns meanwhile
    // ("2m" to "3m") changes both alike.
    let replayed = "";
    await until(
      async () => {
        replayed = await harness!.screenOf(redraw());
        return replayed === harness!.screen();
      },
      "the redraw alone to give the whole screen",
      { detail: () => `Screen:\n${harness!.screen()}\nThe redraw alone:\n${replayed}` },
    );
  });

  it("never writes a hostile message's escape sequences to the terminal", async () => {
    const harness = await each.start();
    const bob = apiFor(harness.server, 1);
    const chat = await conversationWith(bob, "alice");
    const hostile = "evil\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b]0;title\x07\u009b31m\u202Etxt.exe done";
    await bob.messages.send({ conversation_id: chat.id, message: hostile });
    await openFirst(harness, "bob");
    const screen = await harness.waitFor(
      (s) => s.includes("evil") && s.includes("done"),
      "the message",
    );
    expect(screen).toMatch(/evil␛+/);
    const written = harness.written();
    expect(written).not.toContain("\x1b]52");
    expect(written).not.toContain("\x1b]0;");
    expect(written).not.toContain("\u009b");
    expect(written).not.toContain("\u202E");
    expect(harness.clipboard).toEqual([]);
  });

  it("follows resizes and says when the terminal is too small", async () => {
    const harness = await each.start({ columns: 120, rows: 40 });
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.resize(80, 24);
    // The terminal keeps the old frame, shifted, until the new one is drawn: the old status
    // bar can sit on row 24 before that. The new frame has the header on row 1 as well.
    let screen = await harness.waitFor(
      (s) => s.split("\n")[23]!.includes("online") && s.split("\n")[0]!.includes("parley"),
      "the status bar on row 24 and the header on row 1",
    );
    expect(screen.split("\n")[0]).toContain("parley · alice");
    await harness.resize(50, 12);
    await harness.waitFor((s) => s.includes("terminal too small"), "the too-small note");
    await harness.resize(100, 30);
    screen = await harness.waitFor((s) => s.split("\n")[29]!.includes("online"), "the layout back");
    expect(screen).not.toContain("terminal too small");
  });

  it("keeps the selected message on screen when the terminal gets smaller", async () => {
    const harness = await each.start({ columns: 120, rows: 40 });
    await openFirst(harness, "#team");
    await harness.press(KEYS.escape);
    // Up 25 messages: the selection sits near the top of the tall pane.
    await harness.press(..."k".repeat(25));
    const marked = (s: string) => s.split("\n").filter((l) => l.includes("│▌"));
    const before = await harness.waitFor((s) => marked(s).length > 0, "a selected message");
    const header = /│▌([^│]*)│/.exec(marked(before)[0]!)![1]!.trim();
    await harness.resize(80, 24);
    await harness.waitFor(
      (s) => s.split("\n")[23]!.includes("online") && marked(s).some((l) => l.includes(header)),
      `the selected message (${header}) still on screen`,
    );
  });

  it("shows no colour with NO_COLOR, and the selection stays visible", async () => {
    const harness = await each.start({ env: { NO_COLOR: "1" } });
    await harness.waitFor((s) => s.includes("#team"), "the list");
    const colours = [...harness.written().matchAll(/\x1b\[([\d;]*)m/g)].filter(([, params]) =>
      params!.split(";").some((p) => /^(3[0-8]|4[0-8]|9\d|10\d)$/.test(p)),
    );
    expect(colours).toEqual([]);
    // Focus shows as a double border, the selection as a marker.
    expect(harness.screen()).toMatch(/║▸/);
  });

  it("rings and notifies for a new message elsewhere, stripped of control characters, never for a muted one", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    const bob = apiFor(harness.server, 1);
    const carol = apiFor(harness.server, 2);
    await harness.waitFor((s) => s.includes("● online") && s.includes("#team"), "the list");
    await firstInboxAnswer(harness);
    const withBob = await conversationWith(alice, "bob");
    await alice.conversations.update(withBob.id, { is_muted: true });
    await bob.messages.send({
      conversation_id: (await conversationWith(bob, "alice")).id,
      message: "muted news",
    });
    const withCarol = await conversationWith(carol, "alice");
    await carol.messages.send({
      conversation_id: withCarol.id,
      message: "lunch?\x07\x1b]777;notify;fake;pwned\x07\x1b[2J",
    });
    await harness.waitFor(
      () => harness!.sequences.some((s) => s.includes("777;notify")),
      "a notification",
      15_000,
    );
    const notifications = harness.sequences.filter((s) => s.includes("]777;") || s.includes("]9;"));
    expect(harness.sequences).toContain("\x07");
    expect(notifications.join("")).toContain("carol");
    expect(notifications.join("")).not.toContain("muted news");
    for (const n of notifications) {
      // One sequence: ESC ] … BEL, with nothing inside that could end it or start another.
      expect(n).toMatch(/^\x1b\][^\x00-\x1f\x7f-\x9f]*\x07$/);
      expect(n.match(/;/g)?.length ?? 0).toBeLessThanOrEqual(3);
    }
  }, 30_000);

  it("keeps each session's notices to itself (parley ssh runs many in one process)", async () => {
    const harness = await each.start();
    const bobScreen = await startHarness({ server: harness.server, user: 1 });
    each.afterTest(() => bobScreen.close());
    await openFirst(harness, "bob");
    await harness.press(KEYS.escape, "y");
    await harness.waitFor((s) => s.includes("to the clipboard"), "alice's confirmation");
    await bobScreen.waitFor((s) => s.includes("● online"), "bob's client");
    expect(bobScreen.screen()).not.toContain("clipboard");
  });
});
