// A pure function of a string whose results for recent arguments are kept across frames,
// in a quick-lru of two generations of `maxSize` entries: what is still on screen keeps
// being found, lines that scrolled away are dropped with their generation.
import QuickLRU from "quick-lru";

/** Every cache of drawn text in this thread (these, and others that register here). */
export const textCaches = new Set<{ clear(): void }>();

/**
 * Empties them all: a `parley ssh` worker whose sessions have all left lets go of their
 * lines (megabytes of tokenised text) before it gives its heap back.
 */
export function forgetDrawnText(): void {
  for (const cache of textCaches) cache.clear();
}

export function remembered<V>(compute: (key: string) => V, maxSize = 2048): (key: string) => V {
  const cache = new QuickLRU<string, V>({ maxSize });
  textCaches.add(cache);
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
