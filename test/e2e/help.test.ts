// `parley --help` and the README name every command, option, environment variable and
// config file key the code knows: the lists are read from the code, so a new option that
// is not documented fails here.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigFile } from "../../src/config.ts";
import { CLI } from "./tmux.ts";

const root = new URL("../../", import.meta.url);
const cliSource = readFileSync(new URL("src/cli.ts", root), "utf8");
const readme = readFileSync(new URL("README.md", root), "utf8");
const help = execFileSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });

// Every parseArgs option in src/cli.ts; --token exists only to be refused with a reason.
const options = [
  ...new Set([...cliSource.matchAll(/^\s+"?([a-z-]+)"?: \{ type: "(?:string|boolean)"/gm)]),
]
  .map((m) => `--${m[1]}`)
  .filter((o) => o !== "--token" && o !== "--help");
const commands = [...cliSource.matchAll(/if \(first === "([a-z]+)"\)/g)].map((m) => m[1]!);
const environment = [
  "PARLEY_BASE_URL",
  "PARLEY_TOKEN",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "NO_COLOR",
];
const configKeys = Object.keys(ConfigFile.shape);

describe("parley --help and the README", () => {
  it("read the options and commands from the code", () => {
    expect(options).toEqual(
      expect.arrayContaining(["--base-url", "--token-file", "--port", "--threads"]),
    );
    expect(commands).toEqual(expect.arrayContaining(["serve", "ssh"]));
  });

  it.each([
    ["--help", help],
    ["the README", readme],
  ])("%s names every command, option, environment variable and config key", (_, text) => {
    for (const name of [...commands.map((c) => `parley ${c}`), ...options, ...environment]) {
      expect(text, name).toContain(name);
    }
    for (const key of configKeys) expect(text, key).toContain(`"${key}"`);
  });
});
