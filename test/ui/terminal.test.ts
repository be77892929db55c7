// What goes to the terminal itself: OSC 52 plain even inside tmux (tmux's set-clipboard
// carries it), notifications wrapped in tmux's passthrough there.
import { describe, expect, it } from "vitest";
import { createStatusLine } from "../../src/ui/screen/status-line.ts";
import { copyToClipboard, notify, type TerminalOut } from "../../src/ui/screen/terminal-out.ts";

function terminal(insideTmux: boolean): TerminalOut & { out: string[] } {
  const out: string[] = [];
  return { out, insideTmux, write: (data) => void out.push(data) };
}

describe("the clipboard", () => {
  it("sends a plain OSC 52, inside tmux too", () => {
    for (const insideTmux of [false, true]) {
      const t = terminal(insideTmux);
      copyToClipboard(t, createStatusLine(), "héllo");
      expect(t.out).toEqual([`\x1b]52;c;${Buffer.from("héllo").toString("base64")}\x07`]);
    }
  });

  it("says what was copied, in the caller's words when given", () => {
    const status = createStatusLine();
    copyToClipboard(terminal(false), status, "https://example.com/", "Copied the link.");
    expect(status.notice.get()?.text).toBe("Copied the link.");
    copyToClipboard(terminal(false), status, "short");
    expect(status.notice.get()?.text).toBe('Copied "short" to the clipboard.');
  });
});

describe("notifications", () => {
  it("are wrapped in tmux's passthrough inside tmux only", () => {
    const plain = terminal(false);
    notify(plain, "bob", "hi", { bell: false, desktop: true });
    expect(plain.out).toEqual(["\x1b]777;notify;bob;hi\x07", "\x1b]9;bob: hi\x07"]);
    const tmux = terminal(true);
    notify(tmux, "bob", "hi", { bell: false, desktop: true });
    expect(tmux.out).toEqual([
      "\x1bPtmux;\x1b\x1b]777;notify;bob;hi\x07\x1b\\",
      "\x1bPtmux;\x1b\x1b]9;bob: hi\x07\x1b\\",
    ]);
  });
});
