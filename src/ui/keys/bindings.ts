// Every key binding, once, gathered from table/ (one file by part of the screen). A pane or
// dialog hands `useBindings` (match.ts) one record of handlers keyed by its scope's binding
// ids, so no handler names a key and no binding goes without its handler; the help
// overlay, the status bar's hints and the README's key table (frame/help-table.ts) are read from
// the same table.
import type { Binding, Scope } from "./binding.ts";
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
