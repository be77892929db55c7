// The $VISUAL / $EDITOR hand-over as the client runs it: the command split as a shell
// would, the draft in a private file given as the last argument, the saved text back, and
// an editor that fails, is missing or is killed leaving the draft as it was.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createExternalEditor, editorCommand } from "../../src/client/external-editor.ts";
import { splitWords } from "../../src/client/shell-words.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A shell script in a fresh folder, executable; returns its path and the folder. */
function script(body: string): { path: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "parley-editor-test-"));
  dirs.push(dir);
  const path = join(dir, "fake editor.sh");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return { path, dir };
}

const quoted = (path: string) => `'${path}'`;

/** Runs the editor with a hand-over that only counts (no terminal here). */
function editor(env: NodeJS.ProcessEnv) {
  let handedOver = 0;
  const editText = createExternalEditor({
    env: { PATH: process.env.PATH, ...env },
    handOver: async (away) => {
      handedOver++;
      await away();
      return true;
    },
  });
  return { editText, handedOver: () => handedOver };
}

describe("splitWords", () => {
  it("splits as a POSIX shell does, without expanding anything", () => {
    expect(splitWords("vi")).toEqual(["vi"]);
    expect(splitWords("  code   --wait ")).toEqual(["code", "--wait"]);
    expect(splitWords(`emacsclient -t -a ''`)).toEqual(["emacsclient", "-t", "-a", ""]);
    expect(splitWords(`"/opt/My Editor/bin/ed" --flag="a b"`)).toEqual([
      "/opt/My Editor/bin/ed",
      "--flag=a b",
    ]);
    expect(splitWords(String.raw`a\ b "x\"y" 'p\q' $HOME`)).toEqual([
      "a b",
      'x"y',
      "p\\q",
      "$HOME",
    ]);
    expect(splitWords("")).toEqual([]);
  });

  it("refuses a quote left open", () => {
    expect(() => splitWords(`vim "oops`)).toThrow(/unterminated/);
    expect(() => splitWords("vim 'oops")).toThrow(/unterminated/);
  });
});

describe("editorCommand", () => {
  it("takes $VISUAL, else $EDITOR, else vi", () => {
    expect(editorCommand({ VISUAL: "code --wait", EDITOR: "nano" })).toEqual(["code", "--wait"]);
    expect(editorCommand({ VISUAL: " ", EDITOR: "nano -R" })).toEqual(["nano", "-R"]);
    expect(editorCommand({})).toEqual(["vi"]);
  });
});

describe("createExternalEditor", () => {
  it("gives the editor the draft in a private file as its last argument, and reads back what it saved", async () => {
    const seen = script(
      [
        "for last; do :; done",
        'printf "%s\\n" "$@" > "$(dirname "$0")/args"',
        'stat -c %a "$last" > "$(dirname "$0")/mode"',
        'stat -c %a "$(dirname "$last")" > "$(dirname "$0")/dirmode"',
        'cp "$last" "$(dirname "$0")/given"',
        'printf "\\nand a line from the editor\\n" >> "$last"',
      ].join("\n"),
    );
    const { editText, handedOver } = editor({ EDITOR: `${quoted(seen.path)} --wait -n` });
    const result = await editText("hello 👍🏽\nsecond line");
    expect(result).toEqual({
      ok: true,
      text: "hello 👍🏽\nsecond line\nand a line from the editor",
    });
    expect(handedOver()).toBe(1);
    const args = readFileSync(join(seen.dir, "args"), "utf8").trim().split("\n");
    expect(args.slice(0, 2)).toEqual(["--wait", "-n"]);
    expect(readFileSync(join(seen.dir, "given"), "utf8")).toBe("hello 👍🏽\nsecond line");
    expect(readFileSync(join(seen.dir, "mode"), "utf8").trim()).toBe("600");
    expect(readFileSync(join(seen.dir, "dirmode"), "utf8").trim()).toBe("700");
    // The private folder is gone afterwards.
    expect(existsSync(args[2]!)).toBe(false);
  });

  it("prefers $VISUAL to $EDITOR", async () => {
    const visual = script('printf "from visual" > "$1"');
    const { editText } = editor({ VISUAL: quoted(visual.path), EDITOR: "false" });
    expect(await editText("x")).toEqual({ ok: true, text: "from visual" });
  });

  it("keeps the draft and says why when the editor exits non-zero", async () => {
    const failing = script('printf "half-written" > "$1"; exit 3');
    const { editText } = editor({ EDITOR: quoted(failing.path) });
    expect(await editText("keep me")).toEqual({
      ok: false,
      reason: "fake editor.sh exited with status 3",
    });
  });

  it("says when the editor cannot be found, or was killed", async () => {
    const missing = editor({ EDITOR: "no-such-editor-anywhere --wait" });
    expect(await missing.editText("x")).toEqual({
      ok: false,
      reason: "no-such-editor-anywhere was not found; set $VISUAL or $EDITOR",
    });
    const killed = script("kill -TERM $$");
    expect(await editor({ EDITOR: quoted(killed.path) }).editText("x")).toEqual({
      ok: false,
      reason: "fake editor.sh was ended by SIGTERM",
    });
  });

  it("says so for a setting with a quote left open, without running anything", async () => {
    const { editText, handedOver } = editor({ EDITOR: `vim "oops` });
    const result = await editText("x");
    expect(result.ok).toBe(false);
    expect(handedOver()).toBe(0);
  });

  it("runs nothing when the terminal cannot be handed over", async () => {
    const ran = script('touch "$(dirname "$0")/ran"');
    const editText = createExternalEditor({
      env: { EDITOR: quoted(ran.path) },
      handOver: async () => false,
    });
    expect((await editText("x")).ok).toBe(false);
    expect(existsSync(join(ran.dir, "ran"))).toBe(false);
  });
});
