// Emoji sequences that terminals draw at different widths (ZWJ families, flags, VS16,
// skin tones), with CJK and combining marks around them, in the built `parley` in tmux
// 3.3a, which joins a ZWJ sequence's parts or not depending on where its reads fall: the
// screen never drifts (issue 24, point 6). The header stays on row 1, the status bar on
// the last row, and every row is exactly as wide as the pane with its borders where the
// frame puts them, in the list, the open conversation scrolled through, the composer, and
// after Ctrl+L. Widths are measured as tmux draws code points (src/ui/ink/string-width.ts
// in its "code-points" mode: parts of a ZWJ sequence one by one), and no emoji may be
// drawn joined: what is left has one width in every terminal.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { createApi } from "../../src/api/client.ts";
import stringWidth, { widthMode } from "../../src/ui/ink/string-width.ts";
import { demoServerIn } from "./kept-home.ts";
import { CLI, e2eEachTest, hasTmux, type Pane, startPane } from "./tmux.ts";

const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";
const COLUMNS = 100;
const ROWS = 30;
/** The sidebar's right border and the messages pane's left one, side by side. */
const PANES_MEET = /[│║┃╮╯┓┛][│║┃╭╰┏┗]/u;
const JOINED_EMOJI = /\p{Extended_Pictographic}\u200D|\u200D\p{Extended_Pictographic}/u;

const cleanups = e2eEachTest();

/** Blanks the pane behind parley's back, then Ctrl+L: what comes back is a whole new frame. */
async function redraw(pane: Pane): Promise<void> {
  writeFileSync(pane.info("#{pane_tty}"), "\x1b[2J");
  await pane.waitFor((s) => !s.includes("parley"), "the pane blanked");
  pane.send("C-l");
  await pane.waitFor((s) => s.startsWith(" parley · "), "the redrawn frame");
}

/** What is wrong with the frame on screen, or [] when every row is where it must be. */
function drift(screen: string, online = "● online"): string[] {
  const lines = screen.split("\n").slice(0, ROWS);
  const problems: string[] = [];
  if (!lines[0]?.startsWith(" parley · ")) problems.push(`row 1 is not the header: ${lines[0]}`);
  if (!lines[ROWS - 1]?.includes(online)) problems.push("the last row is not the status bar");
  let meet: number | undefined;
  for (let row = 1; row < ROWS - 1; row++) {
    const line = lines[row] ?? "";
    const width = stringWidth(line);
    if (width !== COLUMNS) problems.push(`row ${row + 1} is ${width} columns: ${line}`);
    if (!/^[│║┃╭╰┏┗]/u.test(line) || !/[│║┃╮╯┓┛]$/u.test(line)) {
      problems.push(`row ${row + 1} does not start and end with a border: ${line}`);
    }
    const at = line.search(PANES_MEET);
    const column = at < 0 ? -1 : stringWidth(line.slice(0, at));
    meet ??= column;
    if (column !== meet) problems.push(`row ${row + 1}: the panes meet at ${column}, not ${meet}`);
    if (JOINED_EMOJI.test(line)) problems.push(`row ${row + 1} draws a joined emoji: ${line}`);
  }
  return problems;
}

async function steady(pane: Pane, what: string): Promise<string> {
  // The frame stops changing (the checks are on a whole frame, not one half drawn).
  let last = "";
  return pane.waitFor((s) => {
    const same = s === last;
    last = s;
    return same && s.includes("● online");
  }, what);
}

describe.skipIf(!hasTmux())("emoji sequences in a real terminal", () => {
  it("keep the header, the borders and the status bar in place, also after Ctrl+L", async () => {
    expect(widthMode()).toBe("code-points");
    const dir = mkdtempSync(join(tmpdir(), "parley-graphemes-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await demoServerIn(dir, cleanups);
    const [alice, bob] = server.demoUsers;
    const bobApi = createApi({ baseUrl: server.url, token: bob!.token });
    const withAlice = (await bobApi.conversations.list({ limit: 50 })).data.find(
      (c) => c.contact_id === "ct_alice",
    );
    expect(withAlice).toBeDefined();
    const texts = [
      FAMILY.repeat(1400),
      `中文字符 ${FAMILY} e\u0301 n\u0303 🇫🇷🇩 🏳️‍🌈 👍🏽 ❤️ ${"x\u0301\u0302\u0303".repeat(5)} 한국어`,
      `${"日本語".repeat(30)} ${FAMILY} 🧑🏽‍💻 👩‍❤️‍👨`,
      `🕵️‍♀️ ${FAMILY.repeat(10)} 🇯🇵 ${"a\u0308".repeat(40)}`,
    ];
    for (const message of texts) {
      await bobApi.messages.send({ conversation_id: withAlice!.id, message });
    }
    const pane = startPane({
      command: `node ${JSON.stringify(CLI)}`,
      columns: COLUMNS,
      rows: ROWS,
      env: { PARLEY_BASE_URL: server.url, PARLEY_TOKEN: alice!.token },
    });
    cleanups.push(() => pane.kill());
    await pane.waitFor((s) => s.includes("● online") && s.includes("🕵"), "the list", 30_000);
    expect(drift(await steady(pane, "the list"))).toEqual([]);

    pane.send("Enter");
    await pane.waitFor(
      (s) => s.includes("Message bob") && s.includes("👨👩👧👨👩👧"),
      "bob's messages",
    );
    expect(drift(await steady(pane, "the conversation"))).toEqual([]);

    // Up through the long message, a page at a time, to the conversation's first message.
    pane.send("Escape");
    await pane.waitFor((s) => s.includes("r react"), "the messages pane focused");
    let pages = 0;
    while (!pane.screen().includes("morning! did you see") && pages++ < 20) {
      const before = pane.screen();
      pane.send("PageUp");
      await pane.waitFor((s) => s !== before, "the pane to scroll");
      expect(drift(await steady(pane, "a page up"))).toEqual([]);
    }

    expect(pages).toBeGreaterThan(1);
    await redraw(pane);
    expect(drift(await steady(pane, "the redraw"))).toEqual([]);

    // Typed, in the composer: the same, as the text is edited.
    pane.send("Tab");
    // The status bar's hints, not the composer's placeholder ("Enter sends"), which shows
    // whatever pane has the focus: typed before the focus moves, the text would be keys
    // of the messages pane.
    await pane.waitFor((s) => s.includes("Ctrl+J newline"), "the composer focused");
    pane.type(`${FAMILY.repeat(12)} 中文 e\u0301 🇫`);
    await pane.waitFor((s) => s.includes("中文"), "the typed text");
    expect(drift(await steady(pane, "the composer"))).toEqual([]);
    await redraw(pane);
    expect(drift(await steady(pane, "the redraw"))).toEqual([]);
  }, 120_000);

  const hasSsh =
    spawnSync("ssh", ["-V"], { stdio: "ignore" }).status === 0 &&
    spawnSync("ssh-keygen", ["-?"], { stdio: "ignore" }).error === undefined;

  // parley ssh serves many terminals from one process, and measures the same for all of
  // them: it never asks about clustering, and draws the form every terminal agrees on.
  it.skipIf(!hasSsh)(
    "keep their place over parley ssh too",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "parley-graphemes-ssh-"));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "id")]);
      const folders = {
        HOME: dir,
        XDG_DATA_HOME: join(dir, "data"),
        XDG_STATE_HOME: join(dir, "s"),
      };
      const child = spawn(
        process.execPath,
        [CLI, "ssh", "--demo", "shared", "--port", "0", "--db", ":memory:"],
        { env: { ...process.env, ...folders }, stdio: ["ignore", "pipe", "ignore"] },
      );
      cleanups.push(() => child.kill("SIGKILL"));
      let port = "";
      for await (const line of createInterface({ input: child.stdout! })) {
        port ||= /listening on 127\.0\.0\.1 port (\d+)/.exec(line)?.[1] ?? "";
        if (line.startsWith("any key is accepted")) break;
      }
      expect(port).not.toBe("");
      const pane = startPane({
        command: [
          "ssh -tt -F /dev/null",
          `-i ${JSON.stringify(join(dir, "id"))} -o IdentitiesOnly=yes`,
          "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR",
          `-p ${port} alice@127.0.0.1`,
        ].join(" "),
        columns: COLUMNS,
        rows: ROWS,
      });
      cleanups.push(() => pane.kill());
      await pane.waitFor((s) => s.includes("● online") && /^[│║]▸/m.test(s), "the list", 30_000);
      pane.send("Enter");
      await pane.waitFor((s) => s.includes("Ctrl+J newline"), "the composer");
      pane.type(`${FAMILY.repeat(150)} 中文字符 e\u0301 🇫 🧑🏽‍💻 ${"a\u0308".repeat(20)}`);
      await pane.waitFor((s) => s.includes("字符 e\u0301 F"), "the typed text");
      expect(drift(await steady(pane, "the composer"))).toEqual([]);
      pane.send("Enter");
      await pane.waitFor(
        (s) => s.includes("Message bob") && s.includes("字符 e\u0301 F") && !s.includes("sending…"),
        "the sent message",
      );
      expect(drift(await steady(pane, "the message"))).toEqual([]);
      await redraw(pane);
      expect(drift(await steady(pane, "the redraw"))).toEqual([]);
    },
    120_000,
  );
});
