// Ctrl+G and Ctrl+X Ctrl+E through the real client path: the composer asks the session's
// editor (src/client/external-editor.ts, as the client builds it), which hands the
// harness's terminal over (alternate screen left), runs a fake $EDITOR script, and takes
// the terminal back with a full redraw; the saved text is the draft, not sent.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, newestMessage, openFirst, sendOwn } from "./helpers.ts";

const each = harnessEachTest();

function script(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "parley-editor-ui-"));
  each.afterTest(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "editor.sh");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const APPEND = 'printf "\\nwritten in the editor\\n" >> "$1"';
const CTRL_G = "\x07";

async function latest(h: Harness, name: string): Promise<string | undefined> {
  return (await newestMessage(apiFor(h.server), name))?.message;
}

/**
 * alice types `draft` to bob and presses Ctrl+G, with `editorEnv` for the editor: the
 * harness, and the screen once it says `said`.
 */
async function ctrlG(editorEnv: NodeJS.ProcessEnv | undefined, draft: string, said: string) {
  const harness = await each.start(editorEnv ? { editorEnv } : {});
  await openFirst(harness, "bob");
  await harness.type(draft);
  await harness.press(CTRL_G);
  return { harness, screen: await harness.waitFor((s) => s.includes(said), `"${said}"`) };
}

describe("the draft in $EDITOR", () => {
  it("hands the terminal over with Ctrl+G and takes back the saved text as the draft, unsent", async () => {
    const harness = await each.start({ editorEnv: { EDITOR: script(APPEND) } });
    await openFirst(harness, "bob");
    const before = await latest(harness, "bob");
    await harness.type("from the composer");
    await harness.press(CTRL_G);
    const screen = await harness.waitFor(
      (s) => s.includes("written in the editor"),
      "the editor's text in the composer",
    );
    expect(screen).toContain("from the composer");
    // The alternate screen was left for the editor and entered again, and a full frame drawn.
    const after = harness.written().slice(harness.handOvers[0]);
    expect(after).toContain("\x1b[?1049l");
    expect(after).toContain("\x1b[?1049h");
    expect(after.lastIndexOf("\x1b[?1049h")).toBeLessThan(after.lastIndexOf("parley · alice"));
    // Not sent: the draft is there until Enter.
    expect(await latest(harness, "bob")).toBe(before);
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("Message bob") && !s.includes("sending…"),
      "the draft sent",
    );
    expect(await latest(harness, "bob")).toBe("from the composer\nwritten in the editor");
  });

  it("opens with Ctrl+X Ctrl+E too, pressed apart or in one read; Ctrl+E alone is the line's end", async () => {
    const harness = await each.start({ editorEnv: { VISUAL: script(APPEND), EDITOR: "false" } });
    await openFirst(harness, "bob");
    await harness.type("abc");
    await harness.press(KEYS.left, KEYS.left, "\x05", "X");
    await harness.waitFor((s) => s.includes("abcX"), "Ctrl+E at the end");
    await harness.press("\x18", "\x05");
    await harness.waitFor((s) => s.includes("written in the editor"), "the editor's text");
    await harness.press("\x18\x05");
    await harness.waitFor(
      (s) => s.split("written in the editor").length === 3,
      "the editor's text twice",
    );
  });

  it("edits the message being edited, and keeps the draft when the editor fails", async () => {
    const { screen: failed } = await ctrlG(
      { EDITOR: script('printf "ruined" > "$1"; exit 4') },
      "keep this draft",
      "Draft not changed: editor.sh exited with status 4",
    );
    expect(failed).toContain("keep this draft");
    expect(failed).not.toContain("ruined");
  });

  it("puts the message being edited in the editor, and the saved text stays an edit", async () => {
    const harness = await each.start({ editorEnv: { EDITOR: script(APPEND) } });
    await openFirst(harness, "bob");
    await sendOwn(harness, "first version");
    await harness.press(KEYS.up);
    await harness.waitFor((s) => s.includes("editing your message"), "edit mode");
    await harness.press(CTRL_G);
    await harness.waitFor(
      (s) => s.includes("written in the editor") && s.includes("editing your message"),
      "the edit from the editor",
    );
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("edited") && !s.includes("saving…"), "saved");
    expect(await latest(harness, "bob")).toBe("first version\nwritten in the editor");
  });

  it("says it cannot where there is no editor at the person's end (parley ssh)", async () => {
    const { screen } = await ctrlG(undefined, "stays", "cannot open an editor over parley ssh");
    expect(screen).toContain("stays");
  });
});
