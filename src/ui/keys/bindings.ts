// Every key binding, once, gathered from table/ (one file by part of the screen), and which
// binding a key press triggers. A pane or dialog hands `useBindings` (dispatcher.tsx) one
// record of handlers keyed by its scope's binding ids, so no handler names a key and no
// binding goes without its handler; the help overlay, the status bar's hints and the
// README's key table (frame/help-table.ts) are read from the same table. Free of React:
// config.ts checks a person's own keys against it.
import type { Key } from "ink";
import { type Binding, type Matcher, normalised, type Scope } from "./binding.ts";
import { COMPOSER_BINDINGS } from "./table/composer.ts";
import { CONVERSATION_BINDINGS } from "./table/conversations.ts";
import { DIALOG_BINDINGS } from "./table/dialogs.ts";
import { MESSAGE_BINDINGS } from "./table/messages.ts";
import { SCREEN_BINDINGS } from "./table/screen.ts";
import { type UserKeys, withUserKeys } from "./user-keys.ts";

/** In the order the help and the README list them. */
export const BINDINGS = [
  ...SCREEN_BINDINGS,
  ...CONVERSATION_BINDINGS,
  ...MESSAGE_BINDINGS,
  ...COMPOSER_BINDINGS,
  ...DIALOG_BINDINGS,
] as const satisfies readonly Binding[];

type Entry = (typeof BINDINGS)[number];
export type BindingId = Entry["id"];
/** The ids of one scope's bindings: its handler record has exactly these keys. */
export type ScopeBinding<S extends Scope> = IdIn<Entry, S>;
type IdIn<E, S> = E extends { scope: S; id: infer Id } ? Id : never;

let active: readonly Binding[] = BINDINGS;

/** The bindings in use: the table, with the person's own keys in place (setUserKeys). */
export const activeBindings = (): readonly Binding[] => active;

/**
 * Puts the config file's `keys` in place for the whole process (the client on a person's
 * own machine; parley ssh has none). Throws with a one-line reason, leaving the table as
 * it was; `{}` puts the defaults back.
 */
export function setUserKeys(keys: UserKeys): void {
  active = withUserKeys(BINDINGS, keys);
}

function matches(m: Matcher, input: string, key: Key): boolean {
  if (m.input !== undefined && input !== m.input) return false;
  if (m.key !== undefined && !key[m.key]) return false;
  if (m.ctrl !== undefined && key.ctrl !== m.ctrl) return false;
  if (m.meta !== undefined && key.meta !== m.meta) return false;
  if (m.shift !== undefined && key.shift !== m.shift) return false;
  return true;
}

type Indexed = Map<Scope, { id: string; keys: readonly Matcher[] | "other" }[]>;
let indexed: { of: unknown; byScope: Indexed } | undefined;

/** The bindings in use by scope, with modifiersOf's defaults filled in (once a table). */
function byScope(): Indexed {
  const table = activeBindings();
  if (indexed?.of === table) return indexed.byScope;
  const map: Indexed = new Map();
  for (const { scope, id, keys } of table) {
    const entry = { id, keys: keys === "other" ? keys : keys.map(normalised) };
    map.set(scope, [...(map.get(scope) ?? []), entry]);
  }
  indexed = { of: table, byScope: map };
  return map;
}

/**
 * The binding of `scope` that this key press triggers: the first whose keys match, else
 * the scope's "other" binding if it has one, else undefined.
 */
export function matchBinding<S extends Scope>(
  scope: S,
  input: string,
  key: Key,
): ScopeBinding<S> | undefined {
  let found: { id: string } | undefined;
  for (const binding of byScope().get(scope) ?? []) {
    if (binding.keys === "other") found ??= binding;
    else if (binding.keys.some((m) => matches(m, input, key))) {
      found = binding;
      break;
    }
  }
  // The table's types say which ids a scope has; `byScope` holds the same entries.
  return found?.id as ScopeBinding<S> | undefined;
}
