// Reading a group and driving it with the mouse: senders' colours, mentions, what rings,
// the wheel and clicks as the bytes a terminal sends, and the themes' colours on screen.
import { describe, expect, it } from "vitest";
import { senderColor } from "../../src/ui/look/sender-color.ts";
import { darkTheme, lightTheme } from "../../src/ui/look/theme.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { until } from "../wait.ts";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import {
  apiFor,
  conversationWith,
  firstInboxAnswer,
  openFirst,
  trueColourForFile,
} from "./helpers.ts";

const each = harnessEachTest();

trueColourForFile();

/** The colour of a sender's name where it heads a group of messages (`name · 10:02`). */
function nameColours(h: Harness, name: string): string[] {
  const rows = h
    .screen()
    .split("\n")
    .flatMap((line, row) =>
      new RegExp(`[│║][▌> ]${name} · \\d\\d:\\d\\d`).test(line) ? [row] : [],
    );
  return h
    .looks(`${name} · `)
    .filter((cell) => rows.includes(cell.row))
    .map((cell) => cell.fg);
}

describe("reading a group", () => {
  it("draws each sender's name in the same colour in every conversation, never yours", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    const carol = apiFor(harness.server, 2);
    for (const group of ["team", "design"]) {
      await carol.messages.send({
        conversation_id: (await conversationWith(carol, group)).id,
        message: `carol was here in ${group}`,
      });
    }
    await alice.messages.send({
      conversation_id: (await conversationWith(alice, "team")).id,
      message: "alice too",
    });
    const carolColour = senderColor(darkTheme, "carol")!;
    await openFirst(harness, "#design");
    await harness.waitFor((s) => s.includes("carol was here in design"), "the design group");
    expect(new Set(nameColours(harness, "carol"))).toEqual(new Set([carolColour]));
    // The sidebar's previews of the groups name her in the same colour (which of her
    // messages they show depends on whether the list was polled since she wrote).
    const previews = harness.looks("carol: ");
    expect(previews.length).toBeGreaterThan(0);
    expect(new Set(previews.map((p) => p.fg))).toEqual(new Set([carolColour]));

    await harness.press(KEYS.escape, KEYS.escape);
    await openFirst(harness, "#team");
    await harness.waitFor((s) => s.includes("alice too"), "the team's messages");
    const inTeam = nameColours(harness, "carol");
    expect(inTeam.length).toBeGreaterThan(0);
    expect(new Set(inTeam)).toEqual(new Set([carolColour]));
    expect(harness.looks("you · ").at(-1)?.fg).toBe(darkTheme.self);
    expect(carolColour).not.toBe(darkTheme.self);
  });

  it("uses the light theme's colours when the terminal's background is light", async () => {
    const harness = await each.start({ background: "light" });
    await openFirst(harness, "bob");
    await harness.waitFor(() => nameColours(harness!, "bob").length > 0, "bob's messages");
    expect(nameColours(harness, "bob")[0]).toBe(senderColor(lightTheme, "bob"));
  });

  it("highlights a message that mentions you, and with notify: mentions rings only for it", async () => {
    const harness = await each.start();
    harness.session.notify = { bell: true, desktop: true, level: "mentions" };
    const carol = apiFor(harness.server, 2);
    await harness.waitFor((s) => s.includes("● online") && s.includes("#team"), "the list");
    await firstInboxAnswer(harness);
    const team = await conversationWith(carol, "team");
    await carol.messages.send({ conversation_id: team.id, message: "plain news for all" });
    await carol.messages.send({ conversation_id: team.id, message: "@alice can you look?" });
    await harness.waitFor(
      () => harness!.sequences.some((s) => s.includes("777;notify")),
      "a notification",
    );
    // The plain news was sent first, so it came in the same poll or an earlier one; once the
    // client holds both and has no request left in flight (the muted ids a notification
    // checks first), every notification it was going to give has been given.
    await harness.waitFor(() => {
      const inbox = JSON.stringify(harness!.queryClient.getQueryData(keys.messages.inbox()));
      return (
        inbox.includes("plain news for all") &&
        inbox.includes("@alice can you look?") &&
        harness!.queryClient.isFetching() === 0
      );
    }, "both messages in, and no request in flight");
    const notifications = harness.sequences.filter((s) => s.includes("]777;"));
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toContain("@alice can you look?");
    expect(harness.sequences.filter((s) => s === "\x07")).toHaveLength(1);

    await openFirst(harness, "#team");
    const screen = await harness.waitFor((s) => s.includes("@ mentions you"), "the mention");
    expect(screen).toMatch(/carol · \d\d:\d\d · @ mentions you/);
    const body = harness.looks("@alice can you look?").at(-1)!;
    expect(body).toMatchObject({ fg: darkTheme.mention, bold: true });
    expect(harness.looks("plain news for all")[0]!.fg).toBe("default");
  });
});

describe("themes on screen", () => {
  it.each([
    ["FORCE_COLOR=0", { env: { FORCE_COLOR: "0" } }],
    ["high-contrast", { theme: "high-contrast" as const }],
  ])("with %s draws no colour, and focus shows as a double border", async (_, options) => {
    const harness = await each.start(options);
    const screen = await harness.waitFor((s) => /║▸/u.test(s), "the focused list");
    expect(screen).toMatch(/╔═/u);
    expect(harness.written()).not.toMatch(/\x1b\[[\d;]*38;[25];/);
    // Times and previews are never faint in high-contrast (faint lowers contrast).
    if ("theme" in options) expect(harness.written()).not.toMatch(/\x1b\[2m/);
  });
});

describe("the mouse", () => {
  it("is switched on with SGR reports and off again at the end", async () => {
    const harness = await each.start({ mouse: true });
    await harness.waitFor((s) => s.includes("#team"), "the list");
    expect(harness.written()).toContain("\x1b[?1000h\x1b[?1002h\x1b[?1006h");
    await harness.close();
    await until(() => harness.written().includes("\x1b[?1006l\x1b[?1002l\x1b[?1000l"), "mouse off");
  });

  it("scrolls the pane under the pointer with the wheel, and a click selects and focuses", async () => {
    const harness = await each.start({ mouse: true });
    await openFirst(harness, "bob");
    const newest = "QA signs off tomorrow";
    await harness.waitFor((s) => s.includes(newest), "bob's messages");
    const marked = (s: string) => s.split("\n").filter((l) => /[│║]▌/.test(l));
    const selectedRow = (s: string) => s.split("\n").find((l) => /^[│║]▸/u.test(l));

    // A click on a message (the one before the newest, found by its text below its pin at
    // the top: a day's divider may stand between the two, as in the minutes after
    // midnight) selects it and focuses the messages; the composer had the focus.
    const lines = harness.screen().split("\n");
    const row = lines.findLastIndex((l) => l.includes("Ship it Friday?"));
    expect(row).toBeGreaterThan(0);
    await harness.press(`\x1b[<0;60;${row + 1}M`, `\x1b[<0;60;${row + 1}m`);
    let screen = await harness.waitFor((s) => marked(s).length > 0, "a message selected by click");
    expect(marked(screen).join("\n")).not.toContain(newest);
    // The wheel over the messages (column 60, row 10) moves the selection down to the
    // newest, and up again.
    await harness.press("\x1b[<65;60;10M", "\x1b[<65;60;10M", "\x1b[<65;60;10M");
    await harness.waitFor((s) => marked(s).some((l) => l.includes(newest)), "the newest selected");
    await harness.press("\x1b[<64;60;10M");
    await harness.waitFor((s) => !marked(s).some((l) => l.includes(newest)), "one up");

    // A click on the sidebar's third row (y counted from 1: header 1, border 2, tabs 3,
    // rows of two lines from 4) selects it and focuses the list.
    await harness.press("\x1b[<0;5;8M", "\x1b[<0;5;8m");
    screen = await harness.waitFor((s) => /^[│║]▸ ?#team/mu.test(s), "#team selected by click");
    expect(marked(screen)).toEqual([]);
    // The wheel over the list moves its selection.
    const before = selectedRow(screen);
    await harness.press("\x1b[<65;5;8M");
    await harness.waitFor((s) => selectedRow(s) !== before, "the list's selection moved");
    // A click in the composer (the row above the bottom border and the status bar)
    // focuses it: what is typed then goes into the draft.
    const composerRow = harness.screen().split("\n").length - 2;
    await harness.press(`\x1b[<0;60;${composerRow}M`, `\x1b[<0;60;${composerRow}m`);
    await harness.waitFor((s) => s.includes("Enter send ·"), "the composer's hints");
    await harness.type("typed after a click");
    await harness.waitFor((s) => s.includes("typed after a click"), "the draft");
    // Mouse reports are never typed into the composer.
    expect(harness.screen()).not.toMatch(/\[<\d/);
  });
});
