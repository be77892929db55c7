// What a key binding is: an id, the scope it applies in, the keys that trigger it, and what
// it does in words (and, for people, how the help, the README and the status bar say it).
// The bindings themselves are in table/, one file by part of the screen; bindings.ts
// gathers them.
/** Where a binding applies: the pane or dialog whose handler asks for it. */
export type Scope =
  | "anywhere"
  | "panes"
  | "not typing"
  | "conversations"
  | "messages"
  | "composer"
  | "completion"
  | "search"
  | "message search"
  | "new conversation"
  | "attach"
  | "reactions"
  | "links"
  | "reaction name"
  | "reactors"
  | "confirm"
  | "help"
  | "too small";

/** The key flags a matcher can ask for (Ink's `Key`, without the modifiers). */
export type KeyName =
  | "upArrow"
  | "downArrow"
  | "leftArrow"
  | "rightArrow"
  | "pageUp"
  | "pageDown"
  | "home"
  | "end"
  | "return"
  | "escape"
  | "tab"
  | "backspace"
  | "delete";

export type Modifiers = { ctrl?: boolean; meta?: boolean; shift?: boolean };

/**
 * One way to press a binding: exactly this input, or this key flag, and the modifiers
 * given (true: held, false: not held). A modifier left out may be either for a key flag
 * (↑, Enter); for an input, Ctrl and Alt left out mean not held, so that Ctrl+D or Alt+D is
 * never taken for d (a vim user's Ctrl+D pages, it must not ask to delete).
 */
export type Matcher = ({ input: string; key?: never } | { key: KeyName; input?: never }) &
  Modifiers;

/** Where the status bar shows a hint: the focused pane, an edit, an open dialog. */
export type HintLine =
  | "sidebar"
  | "messages"
  | "composer"
  | "completion"
  | "editing"
  | "react"
  | "links"
  | "new"
  | "help";

export type Binding = {
  readonly id: string;
  readonly scope: Scope;
  /** Any of these; "other" is whatever key no other binding of the scope takes. */
  readonly keys: readonly Matcher[] | "other";
  readonly does: string;
  readonly label?: string;
  readonly readme?: true | { readonly keys?: string; readonly does?: string };
  readonly hint?: Partial<Record<HintLine, string>>;
  /** Why the config file's `keys` cannot set this binding's keys (its handler reads them). */
  readonly fixed?: string;
};

export const digits = (from: number, to: number): Matcher[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ input: String(from + i) }));

/** The modifiers a matcher asks for, with an input's unnamed Ctrl and Alt as not held. */
function modifiersOf(m: Matcher): Modifiers {
  if (m.input === undefined) return m;
  return { ...m, ctrl: m.ctrl ?? false, meta: m.meta ?? false };
}

/** `m` as `matches` reads it: with modifiersOf's defaults filled in (once, at load). */
export const normalised = (m: Matcher): Matcher => ({ ...m, ...modifiersOf(m) });
