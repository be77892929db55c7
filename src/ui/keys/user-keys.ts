// A person's own keys, from the config file's `keys`: a binding id and the key or keys that
// trigger it instead of its own (`"message.react": "x"`, `"conversation.archive":
// ["a", "ctrl+a"]`). A key is a character (`x`, `X`, `?`), or a name (`enter`, `esc`, `tab`,
// `up`, `down`, `left`, `right`, `pgup`, `pgdn`, `home`, `end`, `backspace`, `delete`,
// `space`), after any of `ctrl+`, `alt+`, `shift+` (Shift only with a name: a capital
// letter says it for a character; Alt only with ← → Enter Backspace Delete).
import { type Binding, type KeyName, type Matcher, normalised } from "./binding.ts";

export type UserKeys = Readonly<Record<string, string | readonly string[]>>;

const NAMES: Record<string, KeyName> = {
  enter: "return",
  return: "return",
  esc: "escape",
  escape: "escape",
  tab: "tab",
  up: "upArrow",
  down: "downArrow",
  left: "leftArrow",
  right: "rightArrow",
  pgup: "pageUp",
  pageup: "pageUp",
  pgdn: "pageDown",
  pagedown: "pageDown",
  home: "home",
  end: "end",
  backspace: "backspace",
  delete: "delete",
  del: "delete",
};

/** The names Alt may go with: the others come as Esc and then the key. */
const ALT_NAMES = new Set<KeyName>(["leftArrow", "rightArrow", "return", "backspace", "delete"]);

/** Ctrl+letters a terminal sends as another key. */
const SENT_AS: Record<string, string> = { h: "backspace", i: "tab", j: "a new line", m: "enter" };

/** How the help writes a key name. */
const SHOWN: Record<KeyName, string> = {
  return: "Enter",
  escape: "Esc",
  tab: "Tab",
  upArrow: "↑",
  downArrow: "↓",
  leftArrow: "←",
  rightArrow: "→",
  pageUp: "PgUp",
  pageDown: "PgDn",
  home: "Home",
  end: "End",
  backspace: "Backspace",
  delete: "Delete",
};

/** One key as the config file writes it; throws with the reason it is not one. */
export function parseKey(text: string): Matcher {
  // "+" alone, or "ctrl++": the key is the character "+".
  const plus = text === "+" || text.endsWith("++");
  const parts = plus ? text.slice(0, -1).split("+").slice(0, -1) : text.split("+");
  const last = plus ? "+" : parts.pop()!;
  const held: { ctrl?: true; meta?: true; shift?: true } = {};
  for (const modifier of parts) {
    const name = modifier.toLowerCase();
    if (name === "ctrl") held.ctrl = true;
    else if (name === "alt") held.meta = true;
    else if (name === "shift") held.shift = true;
    else throw new Error(`"${text}": "${modifier}" is not ctrl, alt or shift`);
  }
  const named = NAMES[last.toLowerCase()];
  // A terminal sends Alt+key as Esc and then the key; the dispatcher reads it so (Esc, then
  // the key) but for the few keys parley binds with Alt (keys/dispatcher.tsx).
  if (held.meta && !(named && ALT_NAMES.has(named))) {
    throw new Error(`"${text}": alt+ goes only with left, right, enter, backspace or delete`);
  }
  if (named) return { key: named, ...held };
  const input = last.toLowerCase() === "space" ? " " : last;
  if ([...input].length !== 1 || /[\p{C}]/u.test(input)) {
    throw new Error(`"${text}" is not a key (a character, or a name such as enter or up)`);
  }
  if (held.shift) throw new Error(`"${text}": write the character Shift makes (X for shift+x)`);
  if (held.ctrl && !/^[a-z]$/i.test(input)) throw new Error(`"${text}": ctrl+ takes a letter`);
  const same = held.ctrl ? SENT_AS[input.toLowerCase()] : undefined;
  if (same) throw new Error(`"${text}": a terminal sends it as ${same}`);
  return { input: held.ctrl ? input.toLowerCase() : input, ...held };
}

/** A key as the help writes it: Ctrl+X, Alt+B, Shift+Tab, ↑, x. */
export function formatKey(m: Matcher): string {
  const base = m.key !== undefined ? SHOWN[m.key] : m.input === " " ? "Space" : m.input;
  const upper = m.ctrl && m.input !== undefined ? base.toUpperCase() : base;
  return `${m.ctrl ? "Ctrl+" : ""}${m.meta ? "Alt+" : ""}${m.shift ? "Shift+" : ""}${upper}`;
}

/** Whether some key press could match both (each field that both name agrees). */
export function overlap(first: Matcher, second: Matcher): boolean {
  const a = normalised(first);
  const b = normalised(second);
  const fields = ["input", "key", "ctrl", "meta", "shift"] as const;
  // A key flag arrives with an input of its own ("\r", "\t", or ""), never a printable one.
  if (a.input !== undefined && b.key !== undefined && a.input !== "") return false;
  if (b.input !== undefined && a.key !== undefined && b.input !== "") return false;
  return fields.every((f) => a[f] === undefined || b[f] === undefined || a[f] === b[f]);
}

/** Two bindings of one scope that a key press could both trigger, said in a line. */
export function clashIn(bindings: readonly Binding[]): string | undefined {
  for (const [i, a] of bindings.entries()) {
    for (const b of bindings.slice(i + 1)) {
      // The keys that work anywhere come first, in every scope.
      const together = a.scope === b.scope || a.scope === "anywhere" || b.scope === "anywhere";
      if (!together || a.keys === "other" || b.keys === "other") continue;
      for (const ma of a.keys) {
        const mb = b.keys.find((m) => overlap(ma, m));
        if (mb) return `${formatKey(ma)} is both ${a.id} and ${b.id} (${a.scope})`;
      }
    }
  }
  return undefined;
}

/**
 * The table with the person's keys in place: a binding they set takes only their keys,
 * and the help shows them on a row of its own; a status-bar hint says them in place of
 * the default. Throws with a one-line reason for an unknown id, a key that is not one, a
 * binding that takes any key or whose handler reads its keys (`fixed`), or two bindings
 * of one scope on one key.
 */
export function withUserKeys(table: readonly Binding[], keys: UserKeys): readonly Binding[] {
  const ids = new Set(table.map((b) => b.id));
  for (const id of Object.keys(keys)) {
    if (!ids.has(id)) throw new Error(`"${id}" is not a binding (the ids are in parley's help)`);
  }
  const result = table.map((binding): Binding => {
    const set = keys[binding.id];
    if (set === undefined) return binding;
    const texts = typeof set === "string" ? [set] : set;
    if (binding.keys === "other") throw new Error(`${binding.id} takes any key: it cannot be set`);
    if (binding.fixed) throw new Error(`${binding.id} cannot be set: ${binding.fixed}`);
    if (texts.length === 0) throw new Error(`${binding.id}: no key given`);
    let matchers: Matcher[];
    try {
      matchers = texts.map(parseKey);
    } catch (error) {
      throw new Error(`${binding.id}: ${(error as Error).message}`);
    }
    const shown = matchers.map(formatKey).join(" / ");
    const hint = Object.fromEntries(
      Object.entries(binding.hint ?? {}).map(([line, text]) => [
        line,
        `${shown} ${text.slice(text.indexOf(" ") + 1)}`,
      ]),
    );
    return { ...binding, keys: matchers, label: shown, readme: undefined, hint };
  });
  const clash = clashIn(result);
  if (clash) throw new Error(clash);
  return result;
}
