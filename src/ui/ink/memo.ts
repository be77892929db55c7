/**
 * A string-keyed cache of pure results that lives across frames, bounded without
 * bookkeeping per hit: new entries go to a young map, and when it is full the old map is
 * dropped and the young one becomes old. What is still in use is copied forward on its
 * next hit, so the screen's working set stays while lines that scrolled away are freed.
 */
export class Memo<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  private readonly compute: (key: string) => V;
  private readonly limit: number;

  /** `limit`: entries per generation, so at most twice as many are held. */
  constructor(compute: (key: string) => V, limit = 2048) {
    this.compute = compute;
    this.limit = limit;
  }

  get(key: string): V {
    return this.getOr(key, this.compute);
  }

  /** As `get`, computing a missing value with `make` instead. */
  getOr(key: string, make: (key: string) => V): V {
    let value = this.young.get(key);
    if (value !== undefined) return value;
    value = this.old.get(key);
    if (value === undefined) value = make(key);
    this.young.set(key, value);
    if (this.young.size >= this.limit) {
      this.old = this.young;
      this.young = new Map();
    }
    return value;
  }
}
