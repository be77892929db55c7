// Which binding a key press triggers, and the hook that runs a pane's or dialog's handler
// for it: one record of handlers keyed by the binding ids of its scope.
import type { Key } from "ink";
import { type Matcher, normalised, type Scope } from "./binding.ts";
import { activeBindings, type ScopeBinding } from "./bindings.ts";
import { type KeyHandler, useKeypress } from "./dispatcher.tsx";

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

/**
 * What a binding does: false leaves the key to the handlers below (it was not for this
 * one after all); anything else takes it.
 */
export type KeyAction = (input: string, key: Key) => unknown;

/** A scope's handlers: one for each of its bindings, keyed by the binding's id. */
export type Handlers<S extends Scope> = Record<ScopeBinding<S>, KeyAction>;

/**
 * A key handler that runs the handler of the binding `scope` matches; a key no binding of
 * the scope takes goes to `other` if given, else on to the handlers below.
 */
export function onBindings<S extends Scope>(
  scope: S,
  handlers: Handlers<S>,
  other?: KeyHandler,
): KeyHandler {
  return (input, key) => {
    const id = matchBinding(scope, input, key);
    if (id === undefined) return other?.(input, key) ?? false;
    return (handlers as Record<string, KeyAction>)[id]!(input, key) !== false;
  };
}

/** `onBindings` subscribed to the keys (see useKeypress for the options). */
export function useBindings<S extends Scope>(
  scope: S,
  handlers: Handlers<S>,
  options: Parameters<typeof useKeypress>[1],
): void {
  useKeypress(onBindings(scope, handlers), options);
}

/**
 * The handlers of a list's keys on its selected row, as key actions: with no row selected
 * the key goes on; a handler answering false leaves it too.
 */
export function onSelected<Id extends string, T>(
  handlers: Record<Id, (row: T) => unknown>,
  selected: () => T | undefined,
): Record<Id, KeyAction> {
  const entries = Object.entries<(row: T) => unknown>(handlers).map(([id, act]) => {
    const run: KeyAction = () => {
      const row = selected();
      return row !== undefined && act(row) !== false;
    };
    return [id, run];
  });
  return Object.fromEntries(entries) as Record<Id, KeyAction>;
}
