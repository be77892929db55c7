// The composer's editing rows of the key table (which feed the help and the README) and
// the editing model (which decides what a key does) must agree both ways: every key of an
// editing row does what its row says, and every key the model acts on is in the table.
import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import { applyKey, type EditorState } from "../../src/ui/composer/editor.ts";
import type { Binding } from "../../src/ui/keys/binding.ts";
import { BINDINGS, matchBinding } from "../../src/ui/keys/bindings.ts";
import { key } from "./ink-key.ts";

/** "hello brave world" and a second line, the cursor in the middle of "brave". */
const draft = (): EditorState => ({ value: "hello brave world\nsecond line", cursor: 8 });

const rows = (ids: string[]) => (BINDINGS as readonly Binding[]).filter((b) => ids.includes(b.id));

/** The Ink key event a matcher stands for. */
function press(m: Exclude<Binding["keys"], "other">[number]): [string, Key] {
  const flags: Partial<Key> = { ctrl: m.ctrl ?? false, meta: m.meta ?? false };
  if (m.shift) flags.shift = true;
  if (m.key) return ["", key({ ...flags, [m.key]: true })];
  return [m.input ?? "", key(flags)];
}

describe("the composer's keys", () => {
  it("move the cursor, and only move it, for every key of the moving rows", () => {
    for (const row of rows(["composer.move", "composer.lineEdge", "composer.nextLine"])) {
      for (const m of row.keys as Exclude<Binding["keys"], "other">) {
        const before = draft();
        const { state, handled } = applyKey(before, ...press(m), { width: 40 });
        expect(handled, `${row.id} ${JSON.stringify(m)}`).toBe(true);
        expect(state.value, `${row.id} ${JSON.stringify(m)}`).toBe(before.value);
        expect(state.cursor, `${row.id} ${JSON.stringify(m)}`).not.toBe(before.cursor);
      }
    }
  });

  it("delete something for every key of the deleting row", () => {
    for (const row of rows(["composer.delete"])) {
      for (const m of row.keys as Exclude<Binding["keys"], "other">) {
        const before = draft();
        const { state, handled } = applyKey(before, ...press(m));
        expect(handled, `${row.id} ${JSON.stringify(m)}`).toBe(true);
        expect(state.value.length, `${row.id} ${JSON.stringify(m)}`).toBeLessThan(
          before.value.length,
        );
      }
    }
  });

  it("are all in the table: no key the editing model acts on is missing from it", () => {
    const missing: string[] = [];
    const letters = [..."abcdefghijklmnopqrstuvwxyz"];
    const tries: [string, Key, string][] = [
      ...letters.map((l): [string, Key, string] => [l, key({ ctrl: true }), `Ctrl+${l}`]),
      ...letters.map((l): [string, Key, string] => [l, key({ meta: true }), `Alt+${l}`]),
    ];
    const named = [
      "leftArrow",
      "rightArrow",
      "upArrow",
      "downArrow",
      "home",
      "end",
      "backspace",
      "delete",
    ] as const;
    for (const name of named) {
      for (const mods of [{}, { ctrl: true }, { meta: true }]) {
        tries.push(["", key({ ...mods, [name]: true }), `${JSON.stringify(mods)} ${name}`]);
      }
    }
    for (const [input, k, label] of tries) {
      if (!applyKey(draft(), input, k, { width: 40 }).handled) continue;
      if (matchBinding("composer", input, k) === undefined) missing.push(label);
    }
    expect(missing).toEqual([]);
  });
});
