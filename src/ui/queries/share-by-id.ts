// TanStack Query's structural sharing (replaceEqualDeep) pairs the items of two lists by
// index. A new message or a conversation moved to the top shifts every index by one, so it
// compared each message with its neighbour, field by field, and copied all of them: for
// the open conversation's 600 messages, per event batch, a third of the batch's time and
// most of its garbage (a CPU profile of `npm run bench`'s burst). Here items that carry an
// `id` are paired by it: the unchanged ones are the same objects (the cache writes keep
// them), found at once, and only an item changed in place is compared field by field.
const hasOwn = Object.prototype.hasOwnProperty;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const idOf = (item: unknown): string | undefined =>
  isPlainObject(item) && typeof item.id === "string" ? item.id : undefined;

function byIdOf(list: readonly unknown[]): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const item of list) {
    const id = idOf(item);
    if (id !== undefined) map.set(id, item);
  }
  return map;
}

function shareArrays(prev: readonly unknown[], next: readonly unknown[], depth: number) {
  let byId: Map<string, unknown> | undefined;
  let same = prev.length === next.length;
  const out = new Array<unknown>(next.length);
  for (let i = 0; i < next.length; i++) {
    const item = next[i];
    let before = prev[i];
    if (before !== item) {
      const id = idOf(item);
      if (id !== undefined && idOf(before) !== id) {
        byId ??= byIdOf(prev);
        before = byId.get(id);
      }
    }
    const shared = before === undefined ? item : shareById(before, item, depth + 1);
    out[i] = shared;
    if (shared !== prev[i]) same = false;
  }
  return same ? prev : out;
}

function shareObjects(prev: Record<string, unknown>, next: Record<string, unknown>, depth: number) {
  const keys = Object.keys(next);
  let same = keys.length === Object.keys(prev).length;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const shared = hasOwn.call(prev, key) ? shareById(prev[key], next[key], depth + 1) : next[key];
    out[key] = shared;
    if (shared !== prev[key] || !hasOwn.call(prev, key)) same = false;
  }
  return same ? prev : out;
}

/**
 * `next`, with every part equal to the one in `prev` replaced by it (so what did not change
 * keeps its identity, and React and the layout caches skip it); items of a list are paired
 * by `id` where they have one, else by index. `prev` itself when all of it is equal.
 */
export function shareById<T>(prev: unknown, next: T, depth = 0): T {
  if (prev === next) return prev as T;
  if (depth > 100) return next;
  if (Array.isArray(prev) && Array.isArray(next)) return shareArrays(prev, next, depth) as T;
  if (isPlainObject(prev) && isPlainObject(next)) return shareObjects(prev, next, depth) as T;
  return next;
}
