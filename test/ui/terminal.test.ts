// What goes to the terminal itself: OSC 52 plain even inside tmux (tmux's set-clipboard
// carries it), notifications wrapped in tmux's passthrough there.
import { describe, expect, it } from "vitest";
import { createStatusLine } from "../../src/ui/screen/status-line.ts";
import {
  clipboardUrl,
  copyToClipboard,
  notify,
  type TerminalOut,
} from "../../src/ui/screen/terminal-out.ts";

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

describe("what is copied", () => {
  const payload = (t: { out: string[] }) => {
    expect(t.out).toHaveLength(1);
    const m = /^\x1b\]52;c;([A-Za-z0-9+/=]*)\x07$/.exec(t.out[0]!);
    expect(m).not.toBeNull();
    return Buffer.from(m![1]!, "base64").toString("utf8");
  };

  it("is the text without escapes or controls: a paste cannot end bracketed paste (pastejacking)", () => {
    const t = terminal(false);
    const hostile = "touch /tmp/x\x1b[201~\nrm -rf ~\x1b]52;c;ZXZpbA==\x07\r\n\x9b31m\x00\x7f";
    copyToClipboard(t, createStatusLine(), hostile);
    const copied = payload(t);
    expect(copied).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(copied).toBe("touch /tmp/x\nrm -rf ~\n");
  });

  it("keeps newlines and tabs, and what is printable as it was", () => {
    const t = terminal(false);
    copyToClipboard(t, createStatusLine(), "a\tb\n  ünïcode 🎉\r\nend");
    expect(payload(t)).toBe("a\tb\n  ünïcode 🎉\nend");
  });

  it("of an attachment is only a valid http(s) address", () => {
    expect(clipboardUrl("https://files.example/a.png")).toBe("https://files.example/a.png");
    expect(clipboardUrl("http://files.example/a b")).toBe("");
  });

  it.each([
    "file:///etc/passwd",
    "javascript:alert(1)",
    "mailto:x@example.com",
    "https://x.example/\x1b[201~",
    "curl evil | sh",
    null,
    undefined,
  ])("of an attachment is nothing for %j", (bad) => {
    expect(clipboardUrl(bad)).toBe("");
  });

  it("is nothing, and says so, when nothing safe is left", () => {
    const t = terminal(false);
    const status = createStatusLine();
    copyToClipboard(t, status, "\x1b[2J\x07");
    expect(t.out).toEqual([]);
    expect(status.notice.get()?.text).toContain("Nothing to copy");
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
