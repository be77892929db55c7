// Ctrl+G / Ctrl+X Ctrl+E: the draft in the person's own editor. The command is $VISUAL,
// else $EDITOR, else vi, split into words as a shell would (`code --wait` works) but run
// without a shell, with the draft's file as its last argument and the terminal handed
// over (stdio inherited). The file lives in a private temporary folder (0700, the file
// 0600: a draft may be private) that is removed afterwards. What the editor saved comes
// back as the new draft; an editor that cannot start, fails or is killed leaves the draft
// as it was, and the reason is said.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { EditTextResult } from "../ui/screen/session.ts";
import { splitWords } from "./shell-words.ts";

/** The editor's command line: $VISUAL, else $EDITOR, else vi. Throws on a broken quote. */
export function editorCommand(env: NodeJS.ProcessEnv): string[] {
  for (const setting of [env.VISUAL, env.EDITOR]) {
    const words = setting ? splitWords(setting) : [];
    if (words.length > 0) return words;
  }
  return ["vi"];
}

type Exit = { code: number | null; signal: NodeJS.Signals | null } | { error: Error };

function run(words: string[], file: string, env: NodeJS.ProcessEnv): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(words[0]!, [...words.slice(1), file], { stdio: "inherit", env });
    child.once("error", (error) => resolve({ error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

/** Why an editor's run gave nothing back, or undefined when it ended well. */
export function failure(name: string, exit: Exit): string | undefined {
  if ("error" in exit) {
    const code = (exit.error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? `${name} was not found; set $VISUAL or $EDITOR`
      : `${name} could not start: ${exit.error.message}`;
  }
  if (exit.signal) return `${name} was ended by ${exit.signal}`;
  if (exit.code !== 0) return `${name} exited with status ${exit.code}`;
  return undefined;
}

/** Editors end a saved file with a newline the person did not mean to send. */
export function savedText(contents: string): string {
  return contents.replace(/\r?\n$/, "");
}

export function createExternalEditor(options: {
  env: NodeJS.ProcessEnv;
  /** Runs `away` with the terminal handed over; false if it could not be handed over. */
  handOver: (away: () => Promise<void>) => Promise<boolean>;
}): (text: string) => Promise<EditTextResult> {
  const { env, handOver } = options;
  return async (text) => {
    let words: string[];
    try {
      words = editorCommand(env);
    } catch (error) {
      return { ok: false, reason: `$VISUAL or $EDITOR: ${(error as Error).message}` };
    }
    const name = basename(words[0]!);
    const dir = await mkdtemp(join(tmpdir(), "parley-draft-"));
    try {
      const file = join(dir, "message.txt");
      await writeFile(file, text, { mode: 0o600, flag: "wx" });
      let exit: Exit | undefined;
      const ran = await handOver(async () => {
        exit = await run(words, file, env);
      });
      if (!ran || !exit) return { ok: false, reason: "the terminal is already handed over" };
      const why = failure(name, exit);
      if (why) return { ok: false, reason: why };
      return { ok: true, text: savedText(await readFile(file, "utf8")) };
    } catch (error) {
      return { ok: false, reason: `${name}: ${(error as Error).message}` };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
