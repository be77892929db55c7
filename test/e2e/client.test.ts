// The built `parley` in a real pseudo-terminal (tmux), on the embedded demo server, used
// as a person would: open, send, react, pin, mute, archive, filter, resize, quit; and the
// terminal is given back as it was, also after SIGTERM and SIGHUP.
import { describe, expect, it } from "vitest";
import { listed, moveTo as moveInList } from "../list-cursor.ts";
import { until } from "../wait.ts";
import {
  beat,
  CLI,
  e2eEachTest,
  enterLine,
  hasTmux,
  inTtyCheck,
  type Pane,
  quitAndCheck,
  startPane,
} from "./tmux.ts";

const cleanups = e2eEachTest();

/** A tmux pane running `command`, killed after the test. */
function paneFor(options: Parameters<typeof startPane>[0]): Pane {
  const pane = startPane(options);
  cleanups.push(() => pane.kill());
  return pane;
}

const moveTo = (p: Pane, name: string) =>
  moveInList({ screen: p.screen, down: () => p.send("j"), waitFor: p.waitFor }, name);

describe.skipIf(!hasTmux())("parley in a real terminal", () => {
  it("opens, sends, reacts, pins, mutes, archives, filters, resizes and quits cleanly", async () => {
    const p = paneFor({ command: inTtyCheck(), columns: 120, rows: 40 });
    await p.waitFor(
      (s) => s.includes("● online") && s.includes("#team"),
      "the conversation list",
      30_000,
    );
    expect(p.info("#{alternate_on}")).toBe("1");
    expect(p.screen()).toContain("parley · alice @ the demo (embedded server)");

    // Open the first conversation and send.
    p.send("Enter");
    await p.waitFor((s) => s.includes("Message bob"), "the composer");
    await enterLine(p, "hi from a real terminal");
    await p.waitFor(
      (s) => /you · \d\d:\d\d.*\n.*hi from a real terminal/.test(s) && !s.includes("sending…"),
      "the sent message",
    );

    // React to it.
    // Esc and a letter in one read would be Alt+letter, as in any terminal app.
    p.send("Escape");
    await p.waitFor((s) => s.includes("↑↓ select · r react"), "the messages pane focused");
    p.send("r");
    await p.waitFor((s) => s.includes("Enter or 1-9 toggles your reaction"), "the reaction picker");
    p.send("Enter");
    await p.waitFor((s) => s.includes("👍 1"), "the reaction");
    // The next in the quick row comes from node-emoji's table, as the bundle carries it.
    p.send("r");
    await p.waitFor((s) => s.includes("Enter or 1-9 toggles your reaction"), "the reaction picker");
    p.send("Right");
    await beat();
    p.send("Enter");
    // The demo bob may react too (👋), between the two: its reactions come in order of use.
    await p.waitFor((s) => /👍 1 .*❤\uFE0F? 1/u.test(s), "the second reaction");

    // Back to the list: pin, mute, archive #team, and see the filters follow.
    p.send("Escape");
    await beat();
    p.send("Escape");
    await moveTo(p, "#team");
    p.send("p");
    await p.waitFor((s) => /▸📌 #team/u.test(s), "#team pinned");
    p.send("m");
    await p.waitFor((s) => /▸📌🔕 #team/u.test(s), "#team muted");
    p.send("3");
    await p.waitFor((s) => listed(s, "#team") && !s.includes("#design"), "the Muted filter");
    p.send("1");
    await p.waitFor((s) => s.includes("#design"), "All again");
    await moveTo(p, "#team");
    p.send("a");
    await p.waitFor((s) => s.includes("Archived #team"), "#team archived");
    p.send("4");
    await p.waitFor((s) => /^[│║][▸• ]\S*📦 #team\s/mu.test(s), "the Archived filter");

    // Resize: smaller, too small, back.
    p.resize(80, 24);
    await p.waitFor((s) => s.split("\n")[23]?.includes("online") === true, "the 80x24 layout");
    p.resize(50, 12);
    await p.waitFor((s) => s.includes("terminal too small"), "the too-small note");
    p.resize(120, 40);
    await p.waitFor((s) => s.split("\n")[39]?.includes("online") === true, "the 120x40 layout");

    await quitAndCheck(p);
  }, 120_000);

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    it(`restores the terminal on ${signal}`, async () => {
      const p = paneFor({ command: `node ${JSON.stringify(CLI)}; printf 'CODE=%s\\n' $?` });
      await p.waitFor((s) => s.includes("● online"), "the client", 30_000);
      const node = p.nodePid();
      expect(node).toBeDefined();
      process.kill(node!, signal);
      const after = await p.waitFor((s) => s.includes("CODE="), "parley to exit", 5000);
      expect(after).toMatch(signal === "SIGTERM" ? /CODE=143/ : /CODE=129/);
      expect(p.info("#{alternate_on}")).toBe("0");
      expect(p.info("#{cursor_flag}")).toBe("1");
    }, 60_000);
  }

  it("restores the terminal on SIGTERM while the kept start screen is up", async () => {
    // The first run keeps its start screen; the second draws it at once, and is ended as
    // soon as it shows, before or just after Ink takes it over.
    const cli = `node ${JSON.stringify(CLI)}`;
    const p = paneFor({ command: `${cli}; ${cli}; printf 'CODE=%s\\n' $?` });
    await p.waitFor((s) => s.includes("● online"), "the first run", 30_000);
    const first = p.nodePid();
    p.send("q");
    // The second run's node, as soon as it has drawn its kept screen (alternate screen).
    const node = await until(
      () => {
        const now = p.nodePid();
        if (now === undefined || now === first) return undefined;
        return p.info("#{alternate_on}") === "1" && p.screen().includes("#team") ? now : undefined;
      },
      "the second run's kept screen",
      { intervalMs: 5 },
    );
    process.kill(node, "SIGTERM");
    const after = await p.waitFor((s) => s.includes("CODE="), "parley to exit", 5000);
    expect(after).toMatch(/CODE=143/);
    expect(p.info("#{alternate_on}")).toBe("0");
    expect(p.info("#{cursor_flag}")).toBe("1");
  }, 60_000);

  it("refuses TERM=dumb with a reason, and prints usage errors as one line with exit 2", async () => {
    const pane = paneFor({
      command: `TERM=dumb node ${JSON.stringify(CLI)}; printf 'CODE=%s\\n' $?; node ${JSON.stringify(CLI)} --bogus; printf 'CODE=%s\\n' $?`,
    });
    const screen = await pane.waitFor((s) => (s.match(/CODE=/g) ?? []).length === 2, "both runs");
    expect(screen).toContain("TERM=dumb cannot move the cursor");
    expect(screen).toMatch(/CODE=1[\s\S]*Try "parley --help"[\s\S]*CODE=2/);
  }, 30_000);
});
