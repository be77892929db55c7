// One key dispatcher for the whole app: a single useInput/usePaste pair owns the
// terminal's input, and components subscribe with a priority. Handlers run from the
// highest priority down; the first that returns true stops the key there, so an open
// dialog wins over the focused pane, which wins over the global keys, and no key is
// handled twice.
import { type Key, useInput, usePaste } from "ink";
import { createContext, type ReactNode, useContext, useEffect, useRef } from "react";

export const PRIORITY = { global: 0, pane: 50, dialog: 100 } as const;

export type KeyHandler = (input: string, key: Key) => boolean;
export type PasteHandler = (text: string) => boolean;

type Entry = { priority: number; order: number; onKey?: KeyHandler; onPaste?: PasteHandler };

type Registry = { add(entry: Entry): () => void };

const KeysContext = createContext<Registry | null>(null);

export function KeypressProvider({ children }: { children: ReactNode }) {
  const entries = useRef<Entry[]>([]);
  const registry = useRef<Registry>({
    add(entry) {
      entries.current = [...entries.current, entry].sort(
        (a, b) => b.priority - a.priority || b.order - a.order,
      );
      return () => {
        entries.current = entries.current.filter((e) => e !== entry);
      };
    },
  });
  useInput((input, key) => {
    for (const entry of entries.current) {
      if (entry.onKey?.(input, key)) return;
    }
  });
  usePaste((text) => {
    for (const entry of entries.current) {
      if (entry.onPaste?.(text)) return;
    }
  });
  return <KeysContext.Provider value={registry.current}>{children}</KeysContext.Provider>;
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
  const latestKey = useRef(onKey);
  const latestPaste = useRef(options.onPaste);
  latestKey.current = onKey;
  latestPaste.current = options.onPaste;
  const active = options.isActive ?? true;
  const hasPaste = options.onPaste !== undefined;
  useEffect(() => {
    if (!active) return;
    return registry.add({
      priority: options.priority,
      order: nextOrder++,
      onKey: (input, key) => latestKey.current(input, key),
      onPaste: hasPaste ? (text) => latestPaste.current?.(text) ?? false : undefined,
    });
  }, [registry, active, options.priority, hasPaste]);
}
