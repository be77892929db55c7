// The key-binding table: what matchBinding answers for real key presses, that no scope
// binds one key twice, and that the status-bar hints read as they always have (the help
// overlay's text is guarded by the component tests, the README's table by e2e/help.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { helpSections, hintLines, SECTION } from "../../src/ui/frame/help-table.ts";
import type { Binding, Scope } from "../../src/ui/keys/binding.ts";
import { BINDINGS, matchBinding, setUserKeys } from "../../src/ui/keys/bindings.ts";
import { overlap, parseKey } from "../../src/ui/keys/user-keys.ts";
import { key } from "./ink-key.ts";

describe("matchBinding", () => {
  it("finds a binding by its letter, its key or either alternative", () => {
    expect(matchBinding("conversations", "a", key())).toBe("conversation.archive");
    expect(matchBinding("conversations", "D", key({ shift: true }))).toBe("conversation.delete");
    expect(matchBinding("conversations", "k", key())).toBe("conversation.up");
    expect(matchBinding("conversations", "", key({ upArrow: true }))).toBe("conversation.up");
    expect(matchBinding("messages", "r", key())).toBe("message.react");
    expect(matchBinding("messages", "P", key({ shift: true }))).toBe("message.pin");
    expect(matchBinding("not typing", "?", key())).toBe("app.help");
    expect(matchBinding("not typing", "3", key())).toBe("app.filter");
  });

  it("tells letters apart by case and scopes apart by name", () => {
    expect(matchBinding("conversations", "d", key())).toBeUndefined();
    expect(matchBinding("messages", "d", key())).toBe("message.delete");
    expect(matchBinding("messages", "p", key())).toBeUndefined();
    expect(matchBinding("conversations", "x", key())).toBeUndefined();
    expect(matchBinding("not typing", "5", key())).toBeUndefined();
  });

  it("requires the modifiers a binding names, and only those", () => {
    expect(matchBinding("anywhere", "c", key({ ctrl: true }))).toBe("global.quit");
    expect(matchBinding("anywhere", "c", key())).toBeUndefined();
    expect(matchBinding("anywhere", "z", key({ ctrl: true }))).toBe("global.suspend");
    expect(matchBinding("anywhere", "\t", key({ tab: true }))).toBeUndefined();
    expect(matchBinding("panes", "\t", key({ tab: true }))).toBe("global.nextPane");
    expect(matchBinding("panes", "", key({ tab: true, shift: true }))).toBe("global.previousPane");
    expect(matchBinding("composer", "\r", key({ return: true }))).toBe("composer.send");
    expect(matchBinding("composer", "\r", key({ return: true, meta: true }))).toBe(
      "composer.newLine",
    );
    expect(matchBinding("composer", "\r", key({ return: true, shift: true }))).toBe(
      "composer.newLine",
    );
    expect(matchBinding("composer", "\n", key())).toBe("composer.newLine");
    expect(matchBinding("composer", "j", key({ ctrl: true }))).toBe("composer.newLine");
  });

  it("never takes Ctrl+letter or Alt+letter for the letter (Ctrl+D pages, never deletes)", () => {
    expect(matchBinding("messages", "d", key({ ctrl: true }))).toBe("message.halfDown");
    expect(matchBinding("messages", "u", key({ ctrl: true }))).toBe("message.halfUp");
    expect(matchBinding("messages", "e", key({ ctrl: true }))).toBeUndefined();
    expect(matchBinding("messages", "d", key({ meta: true }))).toBeUndefined();
    expect(matchBinding("conversations", "d", key({ ctrl: true }))).toBe("conversation.halfDown");
    expect(matchBinding("conversations", "u", key({ ctrl: true }))).toBe("conversation.halfUp");
    expect(matchBinding("conversations", "a", key({ ctrl: true }))).toBeUndefined();
  });

  it("answers a scope's catch-all for any key it does not bind", () => {
    expect(matchBinding("confirm", "y", key())).toBe("confirm.yes");
    expect(matchBinding("confirm", "Y", key({ shift: true }))).toBe("confirm.yes");
    expect(matchBinding("confirm", "n", key())).toBe("confirm.keep");
    expect(matchBinding("confirm", "", key({ escape: true }))).toBe("confirm.keep");
    expect(matchBinding("help", " ", key())).toBe("help.pageDown");
    expect(matchBinding("help", "x", key())).toBe("help.close");
    expect(matchBinding("search", "b", key())).toBe("search.type");
    expect(matchBinding("search", "", key({ escape: true }))).toBe("search.clear");
    expect(matchBinding("reactions", "7", key())).toBe("reaction.toggleNumber");
    expect(matchBinding("reactions", "x", key())).toBeUndefined();
  });
});

describe("the table", () => {
  const all = BINDINGS as readonly Binding[];

  it("gives every binding its own id", () => {
    const ids = all.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("binds no key twice in one scope", () => {
    const clashes: string[] = [];
    const scopes = Object.keys(SECTION) as Scope[];
    for (const scope of scopes) {
      const bindings = all.filter((b) => b.scope === scope);
      expect(bindings.filter((b) => b.keys === "other").length).toBeLessThanOrEqual(1);
      for (const [i, a] of bindings.entries()) {
        for (const b of bindings.slice(i + 1)) {
          if (a.keys === "other" || b.keys === "other") continue;
          for (const ma of a.keys) {
            for (const mb of b.keys) {
              if (overlap(ma, mb))
                clashes.push(
                  `${scope}: ${a.id} ${JSON.stringify(ma)} / ${b.id} ${JSON.stringify(mb)}`,
                );
            }
          }
        }
      }
    }
    expect(clashes).toEqual([]);
  });

  it("notices a clash", () => {
    expect(overlap({ input: "k" }, { input: "k", shift: true })).toBe(true);
    expect(overlap({ input: "k" }, { ctrl: true, input: "k" })).toBe(false);
    expect(overlap({ key: "return", meta: false }, { key: "return", meta: true })).toBe(false);
    expect(overlap({ key: "tab" }, { key: "tab", shift: true })).toBe(true);
    expect(overlap({ key: "tab" }, { key: "downArrow" })).toBe(false);
    expect(overlap({ input: "k" }, { key: "upArrow" })).toBe(false);
  });

  it("makes the status-bar hints read as they always have", () => {
    expect(hintLines()).toEqual({
      sidebar:
        "↑↓ move · Enter open · p pin · m mute · a archive · D delete · / search · n new · ? help",
      messages:
        "↑↓ select · r react · e edit · d delete · P pin · y copy · o open · A attach · / search · g/G ends · Esc back",
      composer:
        "Enter send · Ctrl+J newline · ↑ edit last · Ctrl+G editor · Esc messages · Tab next pane",
      completion: "Tab/Enter takes · ↑↓ choose · Esc closes",
      editing: "editing your message · Enter saves · Esc cancels",
      new: "new conversation · ↑↓ Tab pick a person · Enter starts · Esc cancels",
      react: "←→ choose · Enter or 1-9 toggles your reaction · : by name · Esc closes",
      links: "←→ choose · Enter or 1-9 takes it · Esc closes",
      help: "↑↓ PgUp PgDn scroll · any other key closes",
    });
  });

  it("makes the help's sections in their order", () => {
    expect(helpSections().map((s) => s.where)).toEqual([
      "anywhere",
      "not typing",
      "conversations",
      "messages",
      "prompts and dialogs",
      "composer",
      "composer commands",
    ]);
    expect(helpSections().find((s) => s.where === "prompts and dialogs")?.rows).toEqual([
      { keys: "/ search: Enter, Esc", does: "open the match / clear" },
      { keys: "messages /: Enter, Esc", does: "search the conversation / cancel" },
      { keys: "n: ↑↓ Tab, Enter, Esc", does: "pick a person, start the conversation / cancel" },
      { keys: "A: URL [file name], Enter, Esc", does: "add the attachment / cancel" },
      { keys: "reactions: ←→ 1-9 Enter, Esc", does: "choose, toggle yours / close" },
      { keys: "links: ←→ 1-9 Enter, Esc", does: "choose, open or copy it / close" },
      {
        keys: "reactions: :name, Tab",
        does: "type a short code (:wave); Tab ↑↓ choose a completion",
      },
      { keys: "y / any other key", does: "confirm / keep (delete questions)" },
      { keys: "help: ↑↓ PgUp PgDn", does: "scroll this help" },
    ]);
  });
});

describe("the handlers", () => {
  // Each pane or dialog hands useBindings a record keyed by its scope's binding ids (its
  // type asks for every id of the scope), so a binding's handler is found by its id.
  const root = resolve(import.meta.dirname, "../../src/ui");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !file.startsWith("keys/table/"))
    .map((file) => join(root, file));
  // The code, without comment lines (which may show a binding's id as an example).
  const code = (file: string) =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
      .join("\n");
  const text = new Map(files.map((file) => [relative(root, file), code(file)]));

  it("give every binding exactly one handler, keyed by its id", () => {
    const handled = new Map<string, string[]>();
    for (const [file, source] of text) {
      for (const [, id] of source.matchAll(/"([a-zA-Z]+\.[a-zA-Z]+)":/g)) {
        handled.set(id!, [...(handled.get(id!) ?? []), file]);
      }
    }
    const ids = BINDINGS.map((b) => b.id);
    const notOnce = ids.filter((id) => handled.get(id)?.length !== 1);
    expect(notOnce.map((id) => `${id}: ${handled.get(id)?.join(", ") ?? "no handler"}`)).toEqual(
      [],
    );
    expect(handled.size).toBeGreaterThanOrEqual(ids.length);
  });

  it("leave matching a key to keys/, with no chain of ids", () => {
    const outside = [...text]
      .filter(([file, source]) => !file.startsWith("keys/") && /matchBinding\(/.test(source))
      .map(([file]) => file);
    expect(outside).toEqual([]);
    const ids = new Set<string>(BINDINGS.map((b) => b.id));
    const chains = [...text].flatMap(([file, source]) =>
      [...source.matchAll(/[!=]== "([^"]+)"/g)]
        .filter(([, compared]) => ids.has(compared!))
        .map(([chain]) => `${file}: ${chain}`),
    );
    expect(chains).toEqual([]);
  });
});

describe("your own keys", () => {
  it("replace a binding's keys in the matcher, the help and the hints, until put back", () => {
    try {
      setUserKeys({ "message.react": "x", "conversation.archive": ["ctrl+x", "alt+right"] });
      expect(matchBinding("messages", "x", key())).toBe("message.react");
      expect(matchBinding("messages", "r", key())).toBeUndefined();
      expect(matchBinding("conversations", "x", key({ ctrl: true }))).toBe("conversation.archive");
      const rows = helpSections().flatMap((s) => s.rows);
      expect(rows).toContainEqual({
        keys: "x",
        does: "react (again on the same one removes yours)",
      });
      expect(rows).toContainEqual({ keys: "Ctrl+X / Alt+→", does: "archive / restore" });
      expect(hintLines().messages).toContain("x react");
      expect(hintLines().sidebar).toContain("Ctrl+X / Alt+→ archive");
    } finally {
      setUserKeys({});
    }
    expect(matchBinding("messages", "r", key())).toBe("message.react");
    expect(hintLines().messages).toContain("r react");
  });

  it("read keys as the config file writes them, and refuse what is not one", () => {
    expect(parseKey("ctrl+x")).toEqual({ input: "x", ctrl: true });
    expect(parseKey("Alt+Left")).toEqual({ key: "leftArrow", meta: true });
    expect(() => parseKey("alt+b")).toThrow(/alt\+ goes only with/);
    expect(parseKey("shift+tab")).toEqual({ key: "tab", shift: true });
    expect(parseKey("pgdn")).toEqual({ key: "pageDown" });
    expect(parseKey("space")).toEqual({ input: " " });
    expect(parseKey("+")).toEqual({ input: "+" });
    expect(() => parseKey("shift+x")).toThrow(/write the character Shift makes/);
    expect(() => parseKey("ctrl+1")).toThrow(/ctrl\+ takes a letter/);
    expect(() => parseKey("ctrl+m")).toThrow(/sends it as enter/);
    expect(() => parseKey("\u0007")).toThrow(/is not a key/);
    // A clash with another binding of the scope, and the table left as it was.
    expect(() => setUserKeys({ "message.react": "e" })).toThrow(
      "e is both message.react and message.edit (messages)",
    );
    expect(() => setUserKeys({ "message.react": "ctrl+c" })).toThrow(
      "Ctrl+C is both global.quit and message.react (anywhere)",
    );
    expect(matchBinding("messages", "r", key())).toBe("message.react");
  });
});
