// What a new user tripped on in their first hour (issue 24), each where they met it: the
// whole client against the real embedded server, read back from the screen.
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { fitHints, offlineLine } from "../../src/ui/frame/status-bar.tsx";
import { harnessEachTest, KEYS } from "./harness.tsx";
import {
  apiFor,
  conversationWith,
  markedLines,
  openFirst,
  selectRow,
  sendOwn,
  sidebarNames,
} from "./helpers.ts";

const each = harnessEachTest();

describe("a resize", () => {
  it("never loses your place: the open conversation, the focus, the selection, the draft", async () => {
    const harness = await each.start({ columns: 120, rows: 40 });
    await openFirst(harness, "#team");
    await harness.type("half a thought");
    await harness.press(KEYS.escape);
    await harness.press("k");
    await harness.press("k");
    const before = await harness.waitFor(
      (s) => markedLines(s) !== "" && s.includes("y copy"),
      "a message selected in the messages pane",
    );
    await harness.resize(50, 12);
    await harness.waitFor((s) => s.includes("terminal too small"), "the too-small note");
    // Keys do nothing to what cannot be seen.
    await harness.press("j");
    await harness.resize(120, 40);
    const after = await harness.waitFor(
      (s) => !s.includes("terminal too small") && s.includes("online"),
      "the chat back",
    );
    expect(markedLines(after)).toBe(markedLines(before));
    expect(after).toContain("y copy");
    expect(after).toContain("half a thought");
  });
});

describe("the status line", () => {
  it("says a refusal without the ✓ of a success", async () => {
    // No editor is given to this session, as in parley ssh.
    const harness = await each.start();
    await openFirst(harness, "bob");
    await harness.press("\x07");
    const screen = await harness.waitFor(
      (s) => s.includes("Ctrl+G cannot open an editor"),
      "the refusal",
    );
    expect(screen).not.toContain("✓ Ctrl+G");
  });

  it("fits the offline reason and its Ctrl+R hint at 120 and 80 columns", () => {
    const reason = "Cannot reach http://127.0.0.1:43477 (connection refused).";
    // 120 columns less "○ offline, retrying · last synced 15:46" and the gaps.
    const wide = offlineLine(reason, 79);
    expect(wide).toBe(" ✗ Cannot reach 127.0.0.1:43477 (connection refused) · Ctrl+R retries now");
    const narrow = offlineLine(reason, 39);
    expect(narrow.length).toBeLessThanOrEqual(39);
    expect(narrow).toMatch(/^ ✗ Cannot reach 127.*… · Ctrl\+R retries$/);
  });
});

describe("the status bar's keys at 80 columns", () => {
  it("leaves keys out whole, keeping the first and the way out", () => {
    const react = "←→ choose · Enter or 1-9 toggles your reaction · : by name · Esc closes";
    expect(fitHints(react, 100)).toBe(react);
    expect(fitHints(react, 68)).toBe("←→ choose · Enter or 1-9 toggles your reaction · Esc closes");
    expect(fitHints(react, 30)).toBe("←→ choose · Esc closes");
    expect(fitHints(react, 12)).toBe("←→ choose");
    expect(fitHints(react, 6)).toBe("←→ ch…");
  });

  it("shows the reaction picker's Esc at 80x24", async () => {
    const harness = await each.start({ columns: 80, rows: 24 });
    await openFirst(harness, "bob");
    await harness.press("\x1b");
    await harness.press("r");
    const screen = await harness.waitFor((s) => s.includes("←→ choose"), "the picker's keys");
    const bar = screen.split("\n").find((l) => l.includes("←→ choose"))!;
    expect(bar).toContain("Esc closes");
    expect(bar).not.toMatch(/[^ ]…/);
  });
});

describe("your own row in the list", () => {
  it("shows the new text of your newest message once you edit it", async () => {
    const harness = await each.start();
    await openFirst(harness, "bob");
    await sendOwn(harness, "first version");
    await harness.waitFor((s) => s.includes("you: first version"), "your row's preview");
    await harness.press(KEYS.up);
    await harness.waitFor((s) => s.includes("editing your message"), "edit mode");
    await harness.press("\x15");
    await harness.type("second version");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("you: second version"), "the preview, edited");
  });
});

describe("an outage", () => {
  it("says one thing of every send that waits, and asks before dropping one", async () => {
    const server = await startServer({ port: 0, demo: true, demoReplies: false });
    const harness = await each.start({ server });
    await openFirst(harness, "bob");
    await server.close();
    await harness.type("first while away");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("not sent yet"), "the first send waiting");
    await harness.type("second while away");
    await harness.press(KEYS.enter);
    const both = await harness.waitFor(
      (s) => (s.match(/◷ not sent yet, goes out when the server answers/g) ?? []).length === 2,
      "both sends waiting, said the same way",
    );
    expect(both).not.toContain("sending…");
    expect(both).not.toContain("Enter on it retries");

    // d on the newest: a question first, as for a sent message.
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => s.includes("d drops"), "the messages pane");
    await harness.press("d");
    await harness.waitFor((s) => s.includes("Drop this unsent message?"), "the question");
    expect(harness.screen()).toContain("second while away");
    await harness.press("n");
    // Said though the server is gone: the offline line gives way to what a key just did.
    await harness.waitFor((s) => s.includes("✓ Kept."), "kept");
    expect(harness.screen()).toContain("second while away");
    await harness.press("d", "y");
    await harness.waitFor(
      (s) => !s.includes("second while away") && s.includes("first while away"),
      "the second send dropped",
    );
  });
});

describe("the list", () => {
  it("keeps the cursor among the neighbours of a row archived from it", async () => {
    const harness = await each.start();
    await selectRow(harness, "erin");
    const names = sidebarNames(harness.screen());
    const below = names[names.indexOf("erin") + 1]!;
    await harness.press("a");
    await harness.waitFor((s) => !sidebarNames(s).includes("erin"), "erin archived");
    await harness.waitFor(
      (s) => new RegExp(`│▸(?:[📌🔕📦]+ )?${below}\\s`, "u").test(s),
      `the cursor on ${below}, erin's neighbour`,
    );
  });

  it("shows a message of several lines as one line, and the reaction bar's numbers as its keys", async () => {
    const harness = await each.start();
    const bob = apiFor(harness.server, 1);
    const chat = await conversationWith(bob, "alice");
    await bob.messages.send({ conversation_id: chat.id, message: "line one\nline two" });
    const screen = await harness.waitFor((s) => s.includes("line one line two"), "the preview");
    expect(screen).not.toContain("␊");
    await openFirst(harness, "bob");
    await harness.press(KEYS.escape, "r");
    const picker = await harness.waitFor((s) => s.includes(": by name"), "the reaction bar");
    const bar = picker.split("\n").find((l) => l.includes("│ react "))!;
    expect(bar).toContain(" 9");
    expect(bar).not.toContain(" 10");
  });
});
