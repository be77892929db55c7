// The config file's errors say where (line and column), an unknown key is a warning naming
// the closest known key, and the XDG folders are honoured on every platform.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parleyPaths, readConfigFile } from "../../src/config.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function configWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "parley-config-"));
  dirs.push(dir);
  writeFileSync(join(dir, "config.json"), text);
  return join(dir, "config.json");
}
const errorOf = (path: string) => {
  try {
    readConfigFile(path);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("no error");
};

describe("the config file", () => {
  it("names the line and column of malformed JSON", () => {
    const path = configWith('{\n  "bell": true,\n  "token" "x"\n}\n');
    expect(errorOf(path)).toMatch(new RegExp(`^${path}:3:11: not valid JSON`));
  });

  it("names the end of a file cut short", () => {
    const path = configWith('{\n  "bell": true,');
    expect(errorOf(path)).toMatch(new RegExp(`^${path}:2:16: not valid JSON`));
  });

  it("names where a value of the wrong kind is", () => {
    const path = configWith('{\n  "notifications": "yes"\n}\n');
    expect(errorOf(path)).toMatch(new RegExp(`^${path}:2:3: "notifications" `));
  });

  it("takes your own keys, and says in one line what is wrong with them", () => {
    const good = configWith(
      '{"keys": {"message.react": "x", "conversation.archive": ["a", "ctrl+a"]}}',
    );
    expect(readConfigFile(good).keys).toEqual({
      "message.react": "x",
      "conversation.archive": ["a", "ctrl+a"],
    });
    const cases: [string, string][] = [
      ['{"keys": {"message.wave": "x"}}', '"message.wave" is not a binding'],
      ['{"keys": {"message.react": "hyper+x"}}', 'message.react: "hyper+x": "hyper" is not'],
      ['{"keys": {"message.react": "xy"}}', 'message.react: "xy" is not a key'],
      ['{"keys": {"message.react": "e"}}', "e is both message.react and message.edit"],
      ['{"keys": {"help.close": "x"}}', "help.close takes any key"],
      ['{"keys": {"app.filter": "x"}}', "app.filter cannot be set: its keys are the numbers"],
    ];
    for (const [text, reason] of cases) {
      const message = errorOf(configWith(`\n  ${text}`));
      expect(message).toContain(`:2:4: "keys": ${reason}`);
      expect(message).not.toContain("\n");
    }
  });

  it("warns of unknown keys, naming the closest known one, and reads the rest", () => {
    const path = configWith(
      '{"bel": false,\n "notfications": false, "username": "al", "zzzzzzzz": 1}',
    );
    const warnings: string[] = [];
    const config = readConfigFile(path, (line) => warnings.push(line));
    expect(config.username).toBe("al");
    expect(warnings).toEqual([
      `${path}:1:2: unknown key "bel", ignored. Did you mean "bell"?`,
      `${path}:2:2: unknown key "notfications", ignored. Did you mean "notifications"?`,
      `${path}:2:43: unknown key "zzzzzzzz", ignored.`,
    ]);
  });
});

describe("the folders", () => {
  const platform = Object.getOwnPropertyDescriptor(process, "platform")!;
  afterEach(() => Object.defineProperty(process, "platform", platform));

  it.each(["linux", "darwin", "win32"])("on %s, XDG variables that are set are used", (os) => {
    Object.defineProperty(process, "platform", { value: os });
    const paths = parleyPaths({
      XDG_CONFIG_HOME: "/x/config",
      XDG_DATA_HOME: "/x/data",
      XDG_STATE_HOME: "/x/state",
      XDG_CACHE_HOME: "/x/cache",
    });
    expect(paths).toEqual({
      config: "/x/config/parley",
      data: "/x/data/parley",
      state: "/x/state/parley",
      cache: "/x/cache/parley",
      configFile: "/x/config/parley/config.json",
    });
  });

  it("on macOS without them, the Library folders docs/using.md names", () => {
    Object.defineProperty(process, "platform", { value: "darwin" });
    const library = join(homedir(), "Library");
    expect(parleyPaths({ XDG_DATA_HOME: "relative/ignored" })).toEqual({
      config: join(library, "Preferences", "parley"),
      data: join(library, "Application Support", "parley"),
      state: join(library, "Logs", "parley"),
      cache: join(library, "Caches", "parley"),
      configFile: join(library, "Preferences", "parley", "config.json"),
    });
  });
});
