// Writes into the query cache, either at once or gathered: a batch of server events (a
// burst of hundreds) is applied to a draft, each query's data changed in memory as many
// times as its events say, and then written once. Each TanStack write compares the new
// data with the old in depth (structural sharing) and tells every observer, so writing
// per event made a burst of 300 messages cost a minute of CPU; per batch it is one write
// of each query the batch touched, and one render.
import {
  hashKey,
  notifyManager,
  partialMatchKey,
  type QueryClient,
  type QueryKey,
} from "@tanstack/react-query";

type Update<T> = (old: T | undefined) => T | undefined;

export type CacheWrites = {
  get<T>(key: QueryKey): T | undefined;
  set<T>(key: QueryKey, update: Update<T>): void;
  /** Every cached query under `prefix` that has data, through `update`. */
  setAll<T>(prefix: QueryKey, update: Update<T>): void;
  /** The cached queries under `prefix`, with their data as it stands in this draft. */
  entries<T>(prefix: QueryKey): [QueryKey, T | undefined][];
};

/** Each write goes into the cache as it is made. */
export function directWrites(queryClient: QueryClient): CacheWrites {
  return {
    get: (key) => queryClient.getQueryData(key),
    set: (key, update) => queryClient.setQueryData(key, update),
    setAll: (prefix, update) => queryClient.setQueriesData({ queryKey: prefix }, update),
    entries: (prefix) => queryClient.getQueriesData({ queryKey: prefix }),
  };
}

/** Writes kept in memory until `commit`, which makes one cache write per query touched. */
export function draftWrites(
  queryClient: QueryClient,
): CacheWrites & { commit(only?: string): void } {
  const drafts = new Map<string, { key: QueryKey; data: unknown }>();
  const cache = queryClient.getQueryCache();
  /** `under`'s answers, until the draft makes a query the cache does not have. */
  const underAnswers = new Map<string, Map<string, QueryKey>>();
  const read = <T>(key: QueryKey, hash = hashKey(key)): T | undefined =>
    (drafts.has(hash) ? drafts.get(hash)!.data : queryClient.getQueryData(key)) as T | undefined;
  const write = (key: QueryKey, data: unknown, hash = hashKey(key)) => {
    if (!drafts.has(hash) && !cache.get(hash)) underAnswers.clear();
    drafts.set(hash, { key, data });
  };
  /** The queries under `prefix`: the cache's, and those only this draft has made. */
  const under = (prefix: QueryKey) => {
    const prefixHash = hashKey(prefix);
    let queries = underAnswers.get(prefixHash);
    if (!queries) {
      queries = queriesUnder(prefix);
      underAnswers.set(prefixHash, queries);
    }
    return queries;
  };
  const queriesUnder = (prefix: QueryKey) => {
    const found = new Map<string, QueryKey>();
    for (const query of cache.findAll({ queryKey: prefix }))
      found.set(query.queryHash, query.queryKey);
    for (const [hash, { key }] of drafts) {
      if (!found.has(hash) && partialMatchKey(key, prefix)) found.set(hash, key);
    }
    return found;
  };
  return {
    get: (key) => read(key),
    set(key, update) {
      const hash = hashKey(key);
      const next = update(read(key, hash));
      if (next !== undefined) write(key, next, hash);
    },
    setAll(prefix, update) {
      for (const [hash, key] of under(prefix)) {
        const old = read(key, hash);
        if (old === undefined) continue;
        const next = update(old as never);
        if (next !== undefined && next !== old) write(key, next, hash);
      }
    },
    entries: (prefix) => [...under(prefix)].map(([hash, key]) => [key, read(key, hash)]),
    /** Writes what the draft holds (with `only`, the query of that hash alone). */
    commit(only) {
      notifyManager.batch(() => {
        for (const [hash, { key, data }] of drafts) {
          if (only === undefined || only === hash) queryClient.setQueryData(key, data);
        }
      });
      drafts.clear();
    },
  };
}
