// A pure function of a string whose results for recent arguments are kept across frames,
// in a quick-lru of two generations of `maxSize` entries: what is still on screen keeps
// being found, lines that scrolled away are dropped with their generation.
import QuickLRU from "quick-lru";

export function remembered<V>(compute: (key: string) => V, maxSize = 2048): (key: string) => V {
  const cache = new QuickLRU<string, V>({ maxSize });
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
