// What parley asks the terminal (its background, OSC 11, and its device attributes, DA1)
// is read back by parley on every way out, and asked only when the answer is wanted: an
// answer left unread lands on the shell's prompt (`1;2c`) after an early exit, or in the
// UI as keys. tmux answers both questions itself, as a terminal would. And the config
// file's warnings, printed before the full screen hides them, show in the app too.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { shq } from "../processes.ts";
import { statusBar } from "./screen.ts";
import { CLI, hasTmux, type Pane, startPane } from "./tmux.ts";

/**
 * After the command: what is left unread in the terminal's input (as hex), read without
 * waiting for a line, so an answer that came after parley left shows here.
 */
const LEFT_OVER = `sleep 0.5; stty -icanon -echo min 0 time 5; printf 'LEFT=[%s]\\n' "$(head -c 200 | od -An -tx1 | tr -d ' \\n')"`;

let pane: Pane | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  pane?.kill();
  pane = undefined;
  await server?.close();
  server = undefined;
});

function withConfig(config: string, command: string, env: Record<string, string> = {}): Pane {
  pane = startPane({ command: `${command}; ${LEFT_OVER}`, env });
  mkdirSync(join(pane.home, "config", "parley"), { recursive: true });
  writeFileSync(join(pane.home, "config", "parley", "config.json"), config);
  return pane;
}

describe.skipIf(!hasTmux())("the terminal's answers", () => {
  it.each([
    ["a token file that is not there", "{}", `--token-file /nonexistent`],
    ["a config file with a trailing comma", `{"mouse": true,}`, ""],
    ["no token for the server", "{}", "--base-url http://127.0.0.1:9"],
  ])("are read before the terminal is given back after %s", async (_, config, args) => {
    // The config file is written before parley reads it: the pane's shell waits a moment.
    const p = withConfig(config, `sleep 0.3; node ${shq(CLI)} ${args}`);
    const screen = await p.waitFor((s) => s.includes("LEFT=["), "the run and what it left");
    expect(screen).toContain("parley: ");
    expect(screen).toContain("LEFT=[]");
    expect(screen).not.toMatch(/1;2c|rgb:/);
  });

  it("are not asked for with a theme set, and never typed into the app", async () => {
    server = await startServer({ port: 0, demo: true, demoReplies: false });
    const p = withConfig(`{"theme": "dark", "bel": true}`, `sleep 0.3; node ${shq(CLI)}`, {
      PARLEY_BASE_URL: server.url,
      PARLEY_TOKEN: server.demoUsers[0]!.token,
    });
    // The config's warning, in the status line (stderr is behind the full screen). The
    // wait is for the whole frame: tmux may be read while a first frame is half drawn.
    const warning = 'unknown key "bel", ignored. Did you mean "bell"?';
    const first = await p.waitFor(
      (s) => s.includes("#team") && statusBar(s).includes(warning),
      "the list, and the config's warning in the status line",
      30_000,
    );
    expect(first).not.toMatch(/ffff|No conversation matches|rgb:/);
    p.send("q");
    const after = await p.waitFor((s) => s.includes("LEFT=["), "the quit and what it left");
    expect(after).toContain("LEFT=[]");
  }, 60_000);
});
