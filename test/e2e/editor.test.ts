// The draft in $EDITOR with the real built client in tmux: Ctrl+G hands the terminal to
// the editor (main screen, the line discipline back to cooked mode), and when the editor
// exits the client takes it back, draws the whole screen again, and the draft holds what
// the editor saved, unsent.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { until } from "../wait.ts";
import { beat, CLI, hasTmux, type Pane, startPane } from "./tmux.ts";

let pane: Pane | undefined;
let dir: string | undefined;

beforeAll(() => {
  if (!hasTmux()) return;
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does)`);
});

afterEach(() => {
  pane?.kill();
  pane = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe.skipIf(!hasTmux())("the draft in $EDITOR", () => {
  it("hands the terminal over and takes it back with the saved text as the draft", async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-e2e-editor-"));
    const editor = join(dir, "editor.sh");
    // Says it runs, records the terminal's modes, waits to be told to finish, appends a line.
    writeFileSync(
      editor,
      [
        "#!/bin/sh",
        "for last; do :; done",
        'echo "EDITOR RUNNING with $1 on $(basename "$last")"',
        `stty -a > ${JSON.stringify(join(dir, "modes"))}`,
        `while [ ! -e ${JSON.stringify(join(dir, "go"))} ]; do sleep 0.05; done`,
        'printf "\\nwritten in the editor\\n" >> "$last"',
        "",
      ].join("\n"),
    );
    chmodSync(editor, 0o755);
    pane = startPane({
      command: `node ${JSON.stringify(CLI)}`,
      columns: 100,
      rows: 30,
      env: { EDITOR: `'${editor}' --wait` },
    });
    const p = pane;
    await p.waitFor((s) => s.includes("● online") && /^[│║]▸/m.test(s), "the list", 30_000);
    p.send("Enter");
    await p.waitFor((s) => s.includes("Message bob"), "the composer");
    p.type("typed in parley");
    await p.waitFor((s) => s.includes("typed in parley"), "the draft");
    await beat();
    p.send("C-g");

    // The editor has the terminal: the main screen, cooked mode.
    await p.waitFor((s) => s.includes("EDITOR RUNNING with --wait on message.txt"), "the editor");
    expect(p.info("#{alternate_on}")).toBe("0");
    const modes = await waitForFile(join(dir, "modes"));
    expect(modes).toMatch(/(^|\s)icanon(\s|$)/);
    expect(modes).toMatch(/(^|\s)echo(\s|$)/);
    writeFileSync(join(dir, "go"), "");

    // Back: the alternate screen, the whole frame, the editor's text in the draft.
    const back = await p.waitFor(
      (s) => s.includes("written in the editor") && s.includes("parley · alice"),
      "the client drawn again with the edited draft",
    );
    expect(p.info("#{alternate_on}")).toBe("1");
    expect(back).toContain("typed in parley");
    expect(back).not.toContain("EDITOR RUNNING");
    expect(back).toMatch(/● online/);
    // Not sent until Enter: the composer still holds it.
    expect(back).not.toContain("Message bob");
    const tty = p.info("#{pane_tty}");
    expect(execFileSync("stty", ["-a", "-F", tty], { encoding: "utf8" })).toMatch(/-icanon/);
    p.send("C-c");
  }, 60_000);
});

function waitForFile(path: string): Promise<string> {
  const text = () => (existsSync(path) ? readFileSync(path, "utf8") : "");
  return until(() => (text().trim() ? text() : undefined), `${path} written`);
}
