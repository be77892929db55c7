// One key dispatcher for the whole app: a single useInput/usePaste pair owns the
// terminal's input, and components subscribe with a priority. Handlers run from the
// highest priority down; the first that returns true stops the key there, so an open
// dialog wins over the focused pane, which wins over the global keys, and no key is
// handled twice.
//
// A pane or dialog subscribes one record of handlers keyed by its scope's binding ids
// (`useBindings`, at the end): the binding a key triggers (bindings.ts) runs its handler.
//
// Mouse reports (SGR, see mouse.ts) are taken out of the input before Ink reads it, and
// come here to go to the mouse handler of the box under the pointer.
import { type DOMElement, type Key, useInput, usePaste } from "ink";
import {
  createContext,
  type ReactNode,
  type RefObject,
  useContext,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useRef,
} from "react";
import { graphemes } from "../text/graphemes.ts";
import type { Scope } from "./binding.ts";
import { matchBinding, type ScopeBinding } from "./bindings.ts";
import type { MouseEvent, MouseSource } from "./mouse.ts";
import { isTerminalReply } from "./terminal-replies.ts";

/**
 * Who sees a key first, highest first: the keys that work anywhere (Ctrl+C, Ctrl+L, even
 * over a dialog), an open dialog, the focused pane, then the screen's own keys.
 */
export const PRIORITY = {
  screen: 0,
  pane: 50,
  dialog: 100,
  /** Something over the whole screen (the too-small notice): it takes every key but these. */
  cover: 150,
  anywhere: 200,
  /** Handlers that only watch keys go by (they never take one). */
  watcher: 300,
} as const;

export type KeyHandler = (input: string, key: Key) => boolean;
export type PasteHandler = (text: string) => boolean;

type Entry = { priority: number; order: number; onKey?: KeyHandler; onPaste?: PasteHandler };

/** A mouse event at `x`, `y` inside the box (0, 0 is its top left corner, border included). */
export type MouseHandler = (event: MouseEvent & { x: number; y: number }) => void;
type MouseEntry = { ref: RefObject<DOMElement | null>; onMouse: MouseHandler };

type Registry = { add(entry: Entry): () => void; addMouse(entry: MouseEntry): () => void };

const KeysContext = createContext<Registry | null>(null);
const MouseOnContext = createContext(false);

/** Whether mouse reports come in (the config file's `mouse`, on a terminal). */
export const useMouseOn = () => useContext(MouseOnContext);

export function KeypressProvider({
  children,
  mouse,
}: {
  children: ReactNode;
  /** Mouse reports, taken out of the input before Ink reads it (client/mouse-input.ts). */
  mouse?: MouseSource;
}) {
  const entries = useRef<Entry[]>([]);
  const mice = useRef<MouseEntry[]>([]);
  const registry = useRef<Registry>({
    addMouse(entry) {
      // The innermost box under the pointer wins: mounted later, so tried first.
      mice.current = [entry, ...mice.current];
      return () => {
        mice.current = mice.current.filter((e) => e !== entry);
      };
    },
    add(entry) {
      entries.current = [...entries.current, entry].sort(
        (a, b) => b.priority - a.priority || b.order - a.order,
      );
      return () => {
        entries.current = entries.current.filter((e) => e !== entry);
      };
    },
  });
  const dispatch = (input: string, key: Key): boolean => {
    for (const entry of entries.current) {
      if (entry.onKey?.(input, key)) return true;
    }
    return false;
  };
  // Every key waits for the render of the key before it (setImmediate usually comes after
  // React commits what a key changed, and handlers read the state of the last commit): Ink
  // splits one read (↓↓↓ from a key repeat, tmux send-keys, a fast typist over SSH) into
  // keys it hands over in one go, and each must see what the one before did, or ↓↓↓ moves
  // one row and Y → Enter chooses the first link. Not always: React renders an update as a
  // task of its own scheduler, which other work can put behind it (the link chooser took
  // → and still chose the first link, 1 run in 15); so the choosers also keep their index
  // where the next key reads it (use-row-chooser.ts). Usually one render is enough: a change
  // can take more than one to reach the handlers. So after an Esc that was taken (it
  // moves the focus or closes something) the next key waits until the handlers have
  // changed, and a queued key nobody takes is offered again: each a few times over the
  // next 100 ms, after which the key goes as it is (Esc then r, and Esc then ↑, lost
  // their second key now and then).
  const queue = useRef<[string, Key][]>([]);
  const offered = useRef(0);
  /** A key went and its render has not come yet: the next key waits in the queue. */
  const settling = useRef(false);
  const afterRender = () => {
    settling.current = true;
    setImmediate(() => {
      settling.current = false;
      drain();
    });
  };
  const drain = () => {
    const next = queue.current[0];
    if (!next || settling.current) return;
    const before = entries.current;
    const taken = dispatch(...next);
    if (!taken && offered.current < RETRIES) {
      offered.current++;
      settling.current = true;
      setTimeout(() => {
        settling.current = false;
        drain();
      }, RETRY_MS);
      return;
    }
    queue.current.shift();
    offered.current = 0;
    if (taken && next[1].escape) {
      settling.current = true;
      afterChange(before, 0);
    } else afterRender();
  };
  const afterChange = (before: Entry[], waited: number) => {
    if (entries.current !== before || waited >= RETRIES) {
      settling.current = false;
      drain();
    } else setTimeout(() => afterChange(before, waited + 1), RETRY_MS);
  };
  useInput((input, key) => {
    if (isTerminalReply(input)) return;
    const keys = splitTypeahead(input, key);
    const idle = queue.current.length === 0 && !settling.current;
    // A run of text goes whole to whoever takes text (the composer, a prompt): one edit,
    // one render. Only if nobody does is it split into keys (j j j, ? then j). Esc and a
    // letter are never offered whole: a dialog that any key closes would eat the letter.
    if (idle && keys.length === 1) {
      dispatch(input, key);
      afterRender();
      return;
    }
    if (idle && !key.meta && dispatch(input, key)) {
      afterRender();
      return;
    }
    queue.current.push(...keys);
    drain();
  });
  useEffect(
    () =>
      mouse?.subscribe((event) => {
        for (const entry of mice.current) {
          const rect = entry.ref.current ? screenRect(entry.ref.current) : undefined;
          if (!rect || !inside(rect, event)) continue;
          entry.onMouse({ ...event, x: event.x - rect.left, y: event.y - rect.top });
          break;
        }
      }),
    [mouse],
  );
  usePaste((text) => {
    for (const entry of entries.current) {
      if (entry.onPaste?.(text)) return;
    }
  });
  return (
    <KeysContext.Provider value={registry.current}>
      <MouseOnContext.Provider value={mouse !== undefined}>{children}</MouseOnContext.Provider>
    </KeysContext.Provider>
  );
}

const ALT_BINDINGS = new Set(["b", "f", "d"]);
const ALT_UNBOUND_KEYS = [
  "upArrow",
  "downArrow",
  "pageUp",
  "pageDown",
  "home",
  "end",
  "tab",
  "escape",
] as const;
/** How often, and how far apart, a queued key waits for the handlers to catch up. */
const RETRIES = 10;
const RETRY_MS = 10;

function plainKey(key: Key, overrides: Partial<Key> = {}): Key {
  const off = Object.fromEntries(Object.keys(key).map((k) => [k, false])) as unknown as Key;
  return { ...off, eventType: key.eventType, ...overrides };
}

/**
 * Ink hands over printable keys that arrive in one read (typing ahead, a held key, a slow
 * SSH link) as one string. Dispatching them one by one lets each key act, and lets a
 * dialog opened by one key receive the next. A trailing carriage return is Enter. A run
 * with line breaks inside is an unbracketed paste and stays whole, as text.
 */
export function splitTypeahead(input: string, key: Key): [string, Key][] {
  // Esc and then a letter in one read is what a terminal also sends for Alt+letter. parley
  // binds Alt only to b, f and d (word moves and delete, as readline), so any other
  // Alt+letter is taken as the Esc a person typed, then the letter.
  if (key.meta && !key.ctrl && /^[\p{L}\p{N}?/]$/u.test(input) && !ALT_BINDINGS.has(input)) {
    return [
      ["", plainKey(key, { escape: true })],
      [input, plainKey(key)],
    ];
  }
  // Likewise Esc and then ↑, ↓, Page Up/Down, Home, End, Tab or Esc: Ink reads them as
  // Alt and the key (Esc then ↑ arriving within Ink's 20 ms, over SSH or on a busy
  // machine), and parley binds Alt to none of them (only ← and →, the word moves).
  if (key.meta && !key.ctrl && ALT_UNBOUND_KEYS.some((name) => key[name])) {
    return [
      ["", plainKey(key, { escape: true })],
      [input, { ...key, meta: false }],
    ];
  }
  const modified = key.ctrl || key.meta || key.escape || key.return || key.tab || key.backspace;
  if (input.length <= 1 || modified || input.includes("\x1b")) return [[input, key]];
  const enter = input.endsWith("\r");
  const text = enter ? input.slice(0, -1) : input;
  const out: [string, Key][] = /[\r\n]/.test(text)
    ? [[text, key]]
    : Array.from(
        graphemes.segment(text),
        ({ segment }) => [segment, plainKey(key)] as [string, Key],
      );
  if (enter) out.push(["\r", plainKey(key, { return: true })]);
  return out;
}

let nextOrder = 0;

/**
 * Subscribes to keys (and optionally pastes) while `isActive`. Among equal priorities the
 * handler mounted last goes first (a nested component is more specific than its parent).
 */
export function useKeypress(
  onKey: KeyHandler,
  options: { priority: number; isActive?: boolean; onPaste?: PasteHandler },
): void {
  const registry = useContext(KeysContext);
  if (!registry) throw new Error("useKeypress needs a KeypressProvider above it");
  const { onPaste } = options;
  const handleKey = useEffectEvent(onKey);
  const handlePaste = useEffectEvent((text: string) => onPaste?.(text) ?? false);
  const active = options.isActive ?? true;
  const hasPaste = options.onPaste !== undefined;
  // A layout effect, not a passive one: Ink renders after each key, and a dialog opened by
  // one key must already own the next key of the same read (a fast typist, a paste, SSH).
  useLayoutEffect(() => {
    if (!active) return;
    return registry.add({
      priority: options.priority,
      order: nextOrder++,
      onKey: handleKey,
      onPaste: hasPaste ? handlePaste : undefined,
    });
  }, [registry, active, options.priority, hasPaste]);
}

type Rect = { left: number; top: number; width: number; height: number };

/** Where a box is on the screen: its layout offsets summed up to the root. */
export function screenRect(node: DOMElement): Rect | undefined {
  const own = node.yogaNode;
  if (!own) return undefined;
  let left = 0;
  let top = 0;
  for (let n: DOMElement | undefined = node; n; n = n.parentNode) {
    left += n.yogaNode?.getComputedLeft() ?? 0;
    top += n.yogaNode?.getComputedTop() ?? 0;
  }
  return { left, top, width: own.getComputedWidth(), height: own.getComputedHeight() };
}

function inside(rect: Rect, at: { x: number; y: number }): boolean {
  return (
    at.x >= rect.left &&
    at.x < rect.left + rect.width &&
    at.y >= rect.top &&
    at.y < rect.top + rect.height
  );
}

/** Mouse events over the box `ref` is on, while `isActive`. */
export function useMouse(
  ref: RefObject<DOMElement | null>,
  onMouse: MouseHandler,
  options: { isActive?: boolean } = {},
): void {
  const registry = useContext(KeysContext);
  if (!registry) throw new Error("useMouse needs a KeypressProvider above it");
  const handleMouse = useEffectEvent(onMouse);
  const active = options.isActive ?? true;
  useLayoutEffect(() => {
    if (!active) return;
    return registry.addMouse({ ref, onMouse: handleMouse });
  }, [registry, ref, active]);
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
