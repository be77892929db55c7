// What the tests that run the docs' commands share: `parley` on PATH as an installed one
// would be (the built CLI), the sh blocks of a doc's section, and a server started as those
// commands start it.
import type { ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { CLI } from "./tmux.ts";

/** The commands of the sh blocks under `## heading` in docs/`file`, a block each, comments left out. */
export function docCommands(file: string, heading: string): string[][] {
  const doc = readFileSync(new URL(`../../docs/${file}`, import.meta.url), "utf8");
  const section = doc.split(new RegExp(`^## ${heading}\\n`, "m"))[1]?.split(/\n## /)[0] ?? "";
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((block) =>
    block[1]!
      .split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter((line) => line !== ""),
  );
}

/** `home`/bin with a `parley` in it that runs `cli` (the built one by default); its path. */
export function installParley(home: string, cli = CLI): string {
  const bin = join(home, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, "parley"),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"\n`,
  );
  chmodSync(join(bin, "parley"), 0o755);
  return bin;
}

/** An environment with `parley` (the built CLI) first on PATH, in a fresh `home`. */
export function operatorEnv(home: string): NodeJS.ProcessEnv {
  const bin = installParley(home);
  return { PATH: `${bin}:${process.env.PATH}`, HOME: home, TERM: "xterm-256color" };
}

/** A server's first line on stdout (where it listens), once it prints it; then it may go on. */
export async function firstLine(child: ChildProcess, what: string): Promise<string> {
  const first: string = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${what} exited ${code}`)));
  });
  child.stdout!.resume();
  return first;
}
