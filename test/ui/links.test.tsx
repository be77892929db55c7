// Links in messages and attachments: OSC 8 hyperlinks in the bytes written, never for a
// hostile address; `o` opens (or, over SSH, copies) and `Y` copies, with a chooser when a
// message has several.
import { describe, expect, it } from "vitest";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, openFirst } from "./helpers.ts";

const each = harnessEachTest();
const OSC8_OPEN = /\x1b\]8;([^;\x07\x1b]*);([^\x07\x1b]*)(?:\x1b\\|\x07)/g;

/** Every OSC 8 link opened in `bytes`: its parameters (id=…) and address. */
function linksIn(bytes: string): { params: string; url: string }[] {
  return [...bytes.matchAll(OSC8_OPEN)]
    .map((m) => ({ params: m[1]!, url: m[2]! }))
    .filter((l) => l.url !== "");
}

type NewAttachment = {
  file_url: string;
  filename?: string;
  file_type?: string;
  file_size?: number;
};

async function bobSays(h: Harness, message: string, attachments?: NewAttachment[]) {
  const bob = apiFor(h.server, 1);
  const chat = await conversationWith(bob, "alice");
  await bob.messages.send({ conversation_id: chat.id, message, attachments });
}

/** A stand-in for the platform's opener that remembers what it was asked to open. */
function recordingOpener() {
  const opened: string[] = [];
  return { opened, openUrl: async (url: string) => void opened.push(url) };
}

/** Opens bob's conversation and selects its newest message. */
async function openBob(h: Harness, shows: string) {
  await openFirst(h, "bob");
  await h.waitFor((s) => s.includes(shows), shows);
  await h.press(KEYS.escape);
  await h.waitFor((s) => s.includes("y copy"), "the messages pane focused");
}

describe("links in messages", () => {
  it("draws URLs and attachments as OSC 8 hyperlinks", async () => {
    const harness = await each.start();
    await bobSays(
      harness,
      "the doc is at https://example.com/docs?a=1. mail me: mailto:bob@example.com",
      [
        {
          file_url: "https://files.example.com/q3/budget-q3.pdf",
          filename: "budget-q3.pdf",
          file_type: "application/pdf",
          file_size: 284_113,
        },
      ],
    );
    await openFirst(harness, "bob");
    await harness.waitFor((s) => s.includes("📎 budget-q3.pdf · PDF · 277 KB"), "the attachment");
    const urls = linksIn(harness.written()).map((l) => l.url);
    expect(urls).toContain("https://example.com/docs?a=1");
    expect(urls).toContain("mailto:bob@example.com");
    expect(urls).toContain("https://files.example.com/q3/budget-q3.pdf");
    // The text shows as it is, the full stop outside the link.
    expect(harness.screen()).toContain("the doc is at https://example.com/docs?a=1. mail me");
    expect(harness.written()).toContain(
      "https://example.com/docs?a=1\x1b\\https://example.com/docs?a=1\x1b]8;;\x1b\\.",
    );
  });

  it("never makes a hostile address a link, and shows it sanitised", async () => {
    const harness = await each.start();
    await bobSays(
      harness,
      "a https://evil.example/\x1b]8;;https://bad.example\x07x b javascript:alert(1) c https://bell.example/\x07ring end",
    );
    await openFirst(harness, "bob");
    const screen = await harness.waitFor((s) => s.includes("␇ring"), "the message");
    expect(screen).toContain(
      "a https://evil.example/␛x b javascript:alert(1) c https://bell.example/␇ring",
    );
    const urls = linksIn(harness.written()).map((l) => l.url);
    expect(urls.filter((u) => /evil|bad|bell|javascript/.test(u))).toEqual([]);
    // Nothing of it reached the terminal as a sequence.
    expect(harness.written()).not.toContain("\x1b]8;;https://bad.example");
    expect(harness.written()).not.toContain("bell.example/\x07");
  });

  it("keeps one link, with one id, where a long URL wraps", async () => {
    const harness = await each.start({ columns: 80, rows: 30 });
    const url = `https://example.com/${"very-long-path-segment/".repeat(6)}end`;
    await bobSays(harness, `look: ${url}`);
    await openFirst(harness, "bob");
    await harness.waitFor((s) => s.includes("segment/end"), "the wrapped URL");
    const pieces = linksIn(harness.written()).filter((l) => l.url === url);
    expect(new Set(pieces.map((l) => l.params)).size).toBe(1);
    expect(pieces[0]!.params).toMatch(/^id=[\w-]+$/);
    // Drawn over several rows, all of it inside the link: the rows' pieces are written
    // while the link is open (only cursor moves between them, never a border), then closed.
    const written = harness.written();
    const open = written.indexOf(`\x1b]8;${pieces[0]!.params};${url}`);
    const close = written.indexOf("\x1b]8;;", open);
    const inside = written.slice(open, close);
    expect(inside).toContain("segment/end");
    expect(
      inside
        .replace(/\x1b\[\d*[A-Za-z]/g, "")
        .split(url)
        .at(-1),
    ).not.toMatch(/[│║╭╮╰╯]/);
  });
});

describe("o opens, Y copies", () => {
  it("opens the one link with the platform's opener", async () => {
    const { opened, openUrl } = recordingOpener();
    const harness = await each.start({ openUrl });
    await bobSays(harness, "see https://example.com/one");
    await openBob(harness, "see https://example.com/one");
    await harness.press("o");
    expect(opened).toEqual(["https://example.com/one"]);
    expect(harness.clipboard).toEqual([]);
    await harness.waitFor((s) => s.includes("Opening https://example.com/one"), "the status");
  });

  it("copies the link and says why when nothing can open it", async () => {
    const harness = await each.start({
      openUrl: async () => {
        throw new Error("firefox is not installed; xdg-open is not installed");
      },
    });
    await bobSays(harness, "see https://example.com/one");
    await openBob(harness, "see https://example.com/one");
    await harness.press("o");
    await harness.waitFor(
      (s) =>
        s.includes(
          "Copied the link: could not open it (firefox is not installed; xdg-open is not installed).",
        ),
      "the copy and the reason in the status bar",
    );
    expect(harness.clipboard).toEqual(["https://example.com/one"]);
  });

  it("copies instead of opening over SSH, and says so", async () => {
    const { opened, openUrl } = recordingOpener();
    const harness = await each.start({
      env: { SSH_CONNECTION: "10.0.0.2 52000 10.0.0.1 22" },
      openUrl,
    });
    await bobSays(harness, "see https://example.com/one");
    await openBob(harness, "see https://example.com/one");
    await harness.press("o");
    expect(opened).toEqual([]);
    expect(harness.clipboard).toEqual(["https://example.com/one"]);
    await harness.waitFor(
      (s) => s.includes("Copied the link (parley runs over SSH, so it cannot open it here)"),
      "the status",
    );
  });

  it("asks which link when there are several", async () => {
    const { opened, openUrl } = recordingOpener();
    const harness = await each.start({ openUrl });
    await bobSays(harness, "first https://example.com/a then https://example.com/b", [
      { file_url: "https://files.example.com/c.png", filename: "c.png", file_type: "image/png" },
    ]);
    await openBob(harness, "📎 c.png · PNG");
    await harness.press("o");
    const screen = await harness.waitFor(
      (s) => s.includes("open  1 https://example.com/a"),
      "the chooser",
    );
    expect(screen).toContain("2 https://example.com/b");
    expect(screen).toContain("3 📎 c.png · PNG");
    expect(screen).toContain("←→ choose · Enter or 1-9 takes it · Esc closes");
    await harness.press(KEYS.right, KEYS.enter);
    expect(opened).toEqual(["https://example.com/b"]);
    await harness.waitFor((s) => !s.includes("open  1 https"), "the chooser closed");
    await harness.press("o", "3");
    expect(opened).toEqual(["https://example.com/b", "https://files.example.com/c.png"]);
    await harness.press("o", KEYS.escape);
    await harness.waitFor((s) => !s.includes("open  1 https"), "the chooser closed");
    expect(opened).toHaveLength(2);
  });

  it("copies the link with Y, and the chosen one of several", async () => {
    const harness = await each.start();
    await bobSays(harness, "only https://example.com/copied");
    await openBob(harness, "only https://example.com/copied");
    await harness.press("Y");
    expect(harness.clipboard).toEqual(["https://example.com/copied"]);
    await harness.waitFor(
      (s) => s.includes("Copied https://example.com/copied to the clipboard"),
      "the status",
    );
    await bobSays(harness, "two https://example.com/x and https://example.com/y");
    await harness.waitFor((s) => s.includes("two https://example.com/x"), "the new message");
    await harness.press("G");
    await harness.waitFor((s) => s.includes("▌  two https://example.com/x"), "it selected");
    await harness.press("Y");
    await harness.waitFor((s) => s.includes("copy  1 https://example.com/x"), "the chooser");
    await harness.press("2");
    expect(harness.clipboard).toEqual(["https://example.com/copied", "https://example.com/y"]);
  });

  it("says there is nothing to open in a message without links", async () => {
    const harness = await each.start();
    await bobSays(harness, "no links here");
    await openBob(harness, "no links here");
    await harness.press("o");
    await harness.waitFor(
      (s) => s.includes("Nothing to open: this message has no link or attachment"),
      "the status",
    );
  });
});
