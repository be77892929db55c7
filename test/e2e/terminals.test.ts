// The built parley on terminals that differ in what they can show: 256 colours, 16
// colours (TERM=xterm), no colour at all (NO_COLOR), none of it (TERM=dumb or unset), and
// GNU screen (nested in tmux, so that there is still a screen to read). Every byte parley
// writes is recorded (tmux pipe-pane, set up before parley starts) and its SGR sequences
// checked: the colour depth must follow the terminal, and NO_COLOR means none at all.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { shq } from "../processes.ts";
import { until } from "../wait.ts";
import {
  beat,
  CLI,
  hasTmux,
  inTtyCheck,
  needsBuild,
  type Pane,
  quitAndCheck,
  startPane,
} from "./tmux.ts";

// Esc and a letter in one read would be Alt+letter; typed text and Enter in one read is a paste.

const hasScreen = (() => {
  try {
    execFileSync("screen", ["-v"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // `screen -v` exits 1 after printing its version.
    return (error as { status?: number }).status === 1;
  }
})();

// Loaded, with a row selected (Enter opens the selected one).
const listed = (s: string) => s.includes("● online") && s.includes("#team") && /^[│║]▸/m.test(s);
const lines = (s: string) => s.split("\n").filter((l) => l.trim());
const statusBar = (s: string) => lines(s).at(-1) ?? "";
const selectedRow = (s: string) => s.split("\n").find((l) => /^[│║]▸/.test(l)) ?? "";
const selectedLine = (s: string) => s.split("\n").findIndex((l) => /^[│║]▸/.test(l));

/** Every SGR sequence (`ESC [ … m`) in the output, as its parameter lists. */
function sgrParams(output: string): string[][] {
  return [...output.matchAll(/\x1b\[([0-9;:]*)m/g)].map((m) => (m[1] ? m[1].split(";") : ["0"]));
}

/** Parameters that set a colour: 30–49 (incl. 38/48 extended), 90–97, 100–107. */
function colourParams(output: string): string[] {
  const found = new Set<string>();
  for (const params of sgrParams(output)) {
    for (let i = 0; i < params.length; i++) {
      const p = Number(params[i]!.split(":")[0]);
      if ((p >= 30 && p <= 49) || (p >= 90 && p <= 97) || (p >= 100 && p <= 107)) {
        found.add(params.slice(i).join(";"));
      }
      // 38;5;n and 38;2;r;g;b carry their arguments as further parameters.
      if (p === 38 || p === 48) break;
    }
  }
  return [...found];
}

/** 256-colour and truecolour sequences: 38;5;n, 48;5;n, 38;2;r;g;b, 48;2;r;g;b (or with colons). */
const extendedColour = (output: string) =>
  [...output.matchAll(/\x1b\[[0-9;:]*\b[34]8[;:][25][;:][0-9;:]*m/g)].map((m) => m[0]);

type Recorded = { pane: Pane; output(): string };

let panes: Pane[] = [];
let dirs: string[] = [];
let screens: { dir: string; name: string }[] = [];

afterEach(() => {
  for (const { dir, name } of screens) {
    try {
      execFileSync("screen", ["-S", name, "-X", "quit"], {
        stdio: "ignore",
        env: { ...process.env, SCREENDIR: dir },
      });
    } catch {
      // it had ended
    }
  }
  for (const pane of panes) pane.kill();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  panes = [];
  dirs = [];
  screens = [];
});

needsBuild();

/**
 * Runs `command` in a tmux pane whose output is recorded from the first byte: the
 * command waits for a gate file that is created only once pipe-pane is on.
 */
async function recordedPane(command: string, options: { columns?: number; rows?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "parley-terminals-"));
  dirs.push(dir);
  const gate = join(dir, "go");
  const record = join(dir, "output");
  writeFileSync(record, "");
  const pane = startPane({
    command: `until [ -e ${shq(gate)} ]; do sleep 0.02; done; ${command}`,
    columns: options.columns ?? 120,
    rows: options.rows ?? 40,
  });
  panes.push(pane);
  const socket = pane.info("#{socket_path}");
  execFileSync("tmux", ["-S", socket, "pipe-pane", "-o", "-t", "main", `cat >> ${shq(record)}`]);
  // pipe-pane starts its command asynchronously; it is on once tmux names it.
  await until(() => pane.info("#{pane_pipe}") === "1", "tmux's pipe-pane on", {
    timeoutMs: 2_000,
  }).catch(() => undefined);
  writeFileSync(gate, "");
  const recorded: Recorded = { pane, output: () => readFileSync(record, "latin1") };
  return recorded;
}

describe.skipIf(!hasTmux())("parley on different terminals", () => {
  it("TERM=xterm-256color: colours", async () => {
    const { pane: p, output } = await recordedPane(inTtyCheck("TERM=xterm-256color"));
    await p.waitFor(listed, "the conversation list", 30_000);
    expect(selectedRow(p.screen())).toContain("▸");
    await quitAndCheck(p);
    const out = output();
    expect(out).toContain("\x1b[?1049h");
    expect(colourParams(out).length, "colour SGR parameters").toBeGreaterThan(0);
  }, 60_000);

  it("TERM=xterm: 16 colours only, no 256-colour or truecolour sequences", async () => {
    const { pane: p, output } = await recordedPane(inTtyCheck("TERM=xterm"));
    await p.waitFor(listed, "the conversation list", 30_000);
    // Open a conversation too: the message pane and composer have colours of their own.
    p.send("Enter");
    await p.waitFor((s) => /Message \S+/.test(s), "the composer");
    await beat();
    p.send("Escape");
    await p.waitFor((s) => statusBar(s).includes("r react"), "the messages focused");
    await beat();
    await quitAndCheck(p);
    const out = output();
    expect(colourParams(out).length, "colour SGR parameters").toBeGreaterThan(0);
    expect(extendedColour(out), "256-colour / truecolour SGR under TERM=xterm").toEqual([]);
  }, 60_000);

  it("NO_COLOR=1: no colour at all; the selection and the focused pane stay visible", async () => {
    const { pane: p, output } = await recordedPane(inTtyCheck("TERM=xterm-256color NO_COLOR=1"));
    let s = await p.waitFor(listed, "the conversation list", 30_000);
    // The conversation list has the focus: ▸ on the selected row, a double border.
    expect(selectedRow(s)).toMatch(/^║▸/);
    expect(lines(s)[1]).toMatch(/^╔═+╗╭─+╮$/);
    // Where the marker is, not what the row says: names and times change as data arrives.
    const before = selectedLine(s);
    p.send("j");
    s = await p.waitFor((x) => selectedLine(x) > before, "the cursor to move down");
    expect(selectedRow(s)).toMatch(/^║▸/);

    // Open: the composer has the focus, and the double border moves with it.
    p.send("Enter");
    s = await p.waitFor((x) => /║ +Message \S+/.test(x), "the composer, focused");
    expect(lines(s)[1]).toMatch(/^╭─+╮/);
    expect(s).not.toMatch(/^║▸/m);
    await beat();
    p.send("Escape");
    s = await p.waitFor((x) => statusBar(x).includes("r react"), "the messages focused");
    expect(s).toMatch(/╔═+╗\n/);
    await beat();
    // The reaction picker: the chosen one in inverse video, no colour either.
    p.send("r");
    await p.waitFor((x) => x.includes("Enter or 1-9 toggles your reaction"), "the reaction picker");
    await beat();
    p.send("Escape");
    await p.waitFor((x) => !x.includes("Enter or 1-9 toggles your reaction"), "the picker closed");
    await beat();
    await quitAndCheck(p);

    const out = output();
    expect(sgrParams(out).length, "SGR sequences (bold, inverse) are still used").toBeGreaterThan(
      0,
    );
    expect(colourParams(out), "colour SGR parameters under NO_COLOR").toEqual([]);
  }, 60_000);

  it("TERM=dumb and no TERM: refused with the reason, exit 1, the terminal untouched", async () => {
    const { pane: p, output } = await recordedPane(
      `env TERM=dumb node ${shq(CLI)}; printf 'CODE=%s\\n' $?; env -u TERM node ${shq(CLI)}; printf 'CODE=%s\\n' $?`,
    );
    const s = await p.waitFor((x) => (x.match(/CODE=/g) ?? []).length === 2, "both runs");
    expect(s).toMatch(/TERM=dumb cannot move the cursor or switch screens[^\n]*\n[^\n]*CODE=1/);
    expect(s).toMatch(/TERM=\(unset\) cannot move the cursor[^\n]*\n[^\n]*CODE=1/);
    expect(s).toContain("Try TERM=xterm-256color");
    // Not a single escape sequence: no alternate screen, no hidden cursor, no colour.
    expect(output()).not.toContain("\x1b");
  }, 30_000);

  describe.skipIf(!hasScreen)("inside GNU screen (nested in tmux)", () => {
    it("opens, sends, quits; the screen window and then tmux are given back", async () => {
      const dir = mkdtempSync(join(tmpdir(), "parley-screen-"));
      dirs.push(dir);
      // screen wants its socket folder private.
      const sockets = join(dir, "sockets");
      mkdirSync(sockets, { mode: 0o700 });
      const rc = join(dir, "screenrc");
      // altscreen: parley's alternate screen is honoured (screen's default ignores it).
      // vbell off: Debian's /etc/screenrc would print "Wuff" over the status bar on a bell.
      writeFileSync(rc, "startup_message off\naltscreen on\nautodetach off\nvbell off\n");
      const name = `parley-e2e-${process.pid}`;
      screens.push({ dir: sockets, name });
      const inner = `printf 'INNER-TERM=%s\\n' "$TERM"; ${inTtyCheck("")}; read -r _`;
      const pane = startPane({
        command: `SCREENDIR=${shq(sockets)} screen -q -c ${shq(rc)} -S ${name} bash --noprofile --norc -c ${shq(inner)}`,
        columns: 120,
        rows: 40,
      });
      panes.push(pane);
      const p = pane;

      await p.waitFor(listed, "the conversation list in screen", 30_000);
      p.send("Enter");
      await p.waitFor((s) => /Message \S+/.test(s), "the composer");
      p.type("hi from screen");
      await p.waitFor((s) => s.includes("hi from screen"), "the typed text");
      await beat();
      p.send("Enter");
      await p.waitFor(
        (s) => /you · \d\d:\d\d.*\n.*hi from screen/.test(s) && !s.includes("sending…"),
        "the sent message",
      );
      await beat();
      p.send("Escape");
      await p.waitFor((s) => statusBar(s).includes("r react"), "the messages focused");
      await beat();
      p.send("q");

      // parley is gone from screen's window: its own screen is back, settings restored.
      const after = await p.waitFor((s) => s.includes("CODE="), "parley to exit");
      expect(after).toMatch(/INNER-TERM=screen/);
      expect(after).toContain("CODE=0");
      expect(after).toContain("TTY-RESTORED");
      expect(after).not.toContain("● online");
      expect(p.info("#{cursor_flag}"), "cursor shown again (screen passes it on)").toBe("1");

      // End the window: screen ends and hands tmux's pane back in turn.
      p.send("Enter");
      await p.waitFor((s) => s.includes("EXITED=0"), "screen to end");
      expect(p.info("#{alternate_on}")).toBe("0");
    }, 90_000);
  });
});
