// Your own keys, from the config file's `keys`, in the built client: the help and the status
// bar show them, they do what their binding does, and the default key no longer does.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, hasTmux, type Pane, startPane } from "./tmux.ts";

let pane: Pane | undefined;
const homes: string[] = [];
afterEach(() => {
  pane?.kill();
  pane = undefined;
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!hasTmux())("your own keys", () => {
  it("are in the help and the status bar, and act in place of the defaults", async () => {
    const home = mkdtempSync(join(tmpdir(), "parley-keys-"));
    homes.push(home);
    const config = join(home, "config", "parley");
    mkdirSync(config, { recursive: true });
    writeFileSync(
      join(config, "config.json"),
      JSON.stringify({ keys: { "app.help": "H", "conversation.archive": "ctrl+x" } }),
    );
    pane = startPane({ command: `node ${JSON.stringify(CLI)}`, home, columns: 120, rows: 40 });
    const p = pane;
    const list = await p.waitFor(
      (s) => s.includes("● online") && s.includes("#team"),
      "the conversation list",
      30_000,
    );
    expect(list).toContain("Ctrl+X archive");
    expect(list).toContain("H help");

    // The defaults ? and a are no keys now: by the time H (after them) opens the help,
    // neither has done anything.
    p.send("?");
    p.send("a");
    p.send("H");
    const help = await p.waitFor((s) => s.includes("parley keys"), "the help");
    expect(help).toMatch(/ H +this help/);
    expect(help).toMatch(/ Ctrl\+X +archive \/ restore/);
    expect(help).not.toMatch(/ \? +this help/);
    expect(help).not.toMatch(/Archived \S+\./);
    p.send("Escape");
    await p.waitFor((s) => !s.includes("parley keys"), "the help closed");

    p.send("C-x");
    await p.waitFor((s) => /Archived \S+\./.test(s), "the selected conversation archived");
  }, 60_000);
});
