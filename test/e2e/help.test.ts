// `parley --help` and docs/using.md name every command, option, environment variable and
// config file key the code knows: the lists are read from the code, so a new option that
// is not documented fails here. The doc's key table is the binding table's.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_OPTIONS, COMMANDS, ENVIRONMENT } from "../../src/cli-options.ts";
import { ConfigFile } from "../../src/config.ts";
import { readmeCommandTable } from "../../src/ui/composer/commands.ts";
import { readmeKeyTable } from "../../src/ui/frame/help-table.ts";
import { CLI } from "./tmux.ts";

const root = new URL("../../", import.meta.url);
const using = readFileSync(new URL("docs/using.md", root), "utf8");
const help = execFileSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });

// Every option of every command; --token exists only to be refused with a reason.
const options = [
  ...new Set([CLIENT_OPTIONS, ...Object.values(COMMANDS)].flatMap((table) => Object.keys(table))),
]
  .map((o) => `--${o}`)
  .filter((o) => o !== "--token" && o !== "--help");
const commands = Object.keys(COMMANDS);
const environment = ENVIRONMENT;
const configKeys = Object.keys(ConfigFile.shape);

describe("parley --help and docs/using.md", () => {
  it("read the options and commands from the code", () => {
    expect(options).toEqual(
      expect.arrayContaining(["--base-url", "--token-file", "--port", "--threads"]),
    );
    expect(commands).toEqual(expect.arrayContaining(["serve", "ssh"]));
  });

  it.each([
    ["--help", help],
    ["docs/using.md", using],
  ])("%s names every command, option, environment variable and config key", (_, text) => {
    for (const name of [...commands.map((c) => `parley ${c}`), ...options, ...environment]) {
      expect(text, name).toContain(name);
    }
    for (const key of configKeys) expect(text, key).toContain(`"${key}"`);
  });
});

describe("each command's flags", () => {
  // The doc's "## Command line" block: a command's line and the indented ones after it.
  const block = using.split(/^## Command line\n\n```\n/m)[1]?.split("```")[0] ?? "";
  const flags = (text: string) =>
    [...new Set(text.match(/--[a-z][a-z-]*/g) ?? [])].filter((f) => f !== "--help").sort();

  it.each(Object.keys(COMMANDS))("are the same in `parley %s --help` and the doc", (command) => {
    const inDoc = block.match(new RegExp(`^parley ${command} .*(\\n {4,}.*)*`, "m"))?.[0];
    expect(inDoc, `docs/using.md's Command line names parley ${command}`).toBeDefined();
    const own = execFileSync(process.execPath, [CLI, command, "--help"], { encoding: "utf8" });
    // The command's usage line, and its options section (its first line names the command).
    const usage = own.match(new RegExp(`^  parley ${command} .*(\\n {5,}.*)*`, "m"))?.[0];
    const section = own
      .split("\n\n")
      .find((part) => part.split("\n")[0]!.includes(`(parley ${command})`));
    expect(section, `--help has a section for parley ${command}`).toBeDefined();
    const fromCode = Object.keys(COMMANDS[command as keyof typeof COMMANDS])
      .map((o) => `--${o}`)
      .filter((f) => f !== "--help")
      .sort();
    expect(flags(inDoc!)).toEqual(fromCode);
    expect(flags(usage ?? "")).toEqual(fromCode);
    expect(flags(section!)).toEqual(fromCode);
  });

  it("name postgres:// for --db wherever a server's database is meant", () => {
    for (const command of ["serve", "ssh", "users", "groups"]) {
      expect(block).toMatch(new RegExp(`parley ${command} .*postgres://`));
    }
    expect(help).toMatch(/parley serve .*postgres:\/\//);
    expect(help).toMatch(/parley ssh .*postgres:\/\//);
  });
});

describe("docs/using.md's keys", () => {
  it("are the key-binding table's, row for row", () => {
    // The table under "## Keys", from its header row up to the next heading. To update it
    // after a change in src/ui/keys/bindings.ts, paste in what this test expects.
    const section = using.split(/^## Keys\n\n/m)[1]?.split(/\n## /)[0];
    expect(section, "docs/using.md has a ## Keys section").toBeDefined();
    const table = section!.slice(section!.indexOf("| where |"));
    expect(table.trimEnd()).toBe(readmeKeyTable().trimEnd());
  });

  it("list the composer's commands, as the command table has them", () => {
    const section = using.split(/^## Composer commands\n\n/m)[1]?.split(/\n## /)[0];
    expect(section, "docs/using.md has a ## Composer commands section").toBeDefined();
    expect(section).toContain(readmeCommandTable());
  });
});

describe("what help and docs/using.md say alike", () => {
  const flat = (text: string) => text.replace(/`/g, "").replace(/\s+/g, " ");

  it("--version names the version and the database schema", async () => {
    const { MIGRATIONS } = await import("../../src/server/store/sqlite/migrations.ts");
    const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
    const out = execFileSync(process.execPath, [CLI, "--version"], { encoding: "utf8" });
    expect(out).toBe(`parley ${pkg.version} (database schema ${MIGRATIONS.length})\n`);
  });

  it("the database is --db, else PARLEY_DATABASE_URL, else server.db, in both", () => {
    const users = execFileSync(process.execPath, [CLI, "users", "--help"], { encoding: "utf8" });
    const order = /--db[^.]*?else PARLEY_DATABASE_URL, else [^ ]*server\.db/;
    expect(flat(users)).toMatch(order);
    expect(flat(using)).toMatch(order);
  });
});
