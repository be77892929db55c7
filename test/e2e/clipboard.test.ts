// Copying inside tmux: with `set-clipboard on` (what docs/using.md recommends) the OSC 52
// that `y` and `Y` send arrives in tmux's paste buffer, from where tmux passes it on.
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../wait.ts";
import { beat, CLI, hasTmux, needsBuild, type Pane, startPane } from "./tmux.ts";

let pane: Pane | undefined;

afterEach(() => {
  pane?.kill();
  pane = undefined;
});

needsBuild();

const buffer = (p: Pane) => {
  try {
    return p.tmux("show-buffer");
  } catch {
    return ""; // no buffer yet
  }
};

describe.skipIf(!hasTmux())("the clipboard in tmux", () => {
  it("puts what y and Y copy in tmux's buffer with set-clipboard on", async () => {
    pane = startPane({ command: `node ${JSON.stringify(CLI)}`, columns: 120, rows: 40 });
    const p = pane;
    p.tmux("set-option", "-s", "set-clipboard", "on");
    await p.waitFor((s) => s.includes("● online") && s.includes("│▸"), "the list", 30_000);
    p.send("Enter");
    await p.waitFor((s) => s.includes("Message bob"), "bob's conversation");
    p.send("Escape");
    await p.waitFor((s) => s.includes("y copy"), "the messages pane");
    const newest = "I think we're ready if QA signs off tomorrow";
    await p.waitFor((s) => s.includes(newest), "the newest message");
    p.send("y");
    await p.waitFor((s) => s.includes("to the clipboard"), "the copy confirmed");
    await until(() => buffer(p) === newest, "the message in tmux's buffer");

    // Up to bob's attachment: Y copies its address.
    const before = buffer(p);
    for (let i = 0; i < 12 && buffer(p) === before; i++) {
      p.send("k");
      await beat();
      p.send("Y");
      await beat();
    }
    expect(buffer(p)).toBe("https://files.example.com/alice-bob/budget-q3.pdf");
  });
});
