// Finished list pages as JSON text, kept until the database changes. Clients poll the
// open conversation's newest page every few seconds, so the same page is asked for again
// and again; building it (rows, reactions, attachments, JSON) is most of a request's cost.
// `version` changes with every write, by this instance or (PostgreSQL) any other.
/** Pages are kept UTF-8 encoded: encoding 20 KB of JSON again for each request costs more than building the response. */
export type PageCache = { get(key: string, build: () => Promise<string>): Promise<Uint8Array> };

/**
 * At most `maxPages` pages and `maxBytes` bytes of them; a page over an eighth of
 * `maxBytes` is answered but not kept (a few large pages would push out all the others).
 */
export function createPageCache(
  version: () => string,
  maxPages = 512,
  maxBytes = 32 * 1024 * 1024,
): PageCache {
  let builtAt = "";
  let bytes = 0;
  const pages = new Map<string, Uint8Array>();
  return {
    async get(key, build) {
      const before = version();
      if (before !== builtAt) {
        pages.clear();
        bytes = 0;
        builtAt = before;
      }
      const kept = pages.get(key);
      if (kept !== undefined) return kept;
      const page = Buffer.from(await build());
      // A write while the page was read may or may not be in it: keep it only if none came.
      const keep = version() === before && builtAt === before && !pages.has(key);
      if (keep && page.byteLength <= maxBytes / 8) {
        while (pages.size >= maxPages || bytes + page.byteLength > maxBytes) {
          const [oldest, dropped] = pages.entries().next().value!;
          pages.delete(oldest);
          bytes -= dropped.byteLength;
        }
        pages.set(key, page);
        bytes += page.byteLength;
      }
      return page;
    },
  };
}

/** Caches nothing: for measuring the uncached path. */
export const noPageCache: PageCache = { get: async (_key, build) => Buffer.from(await build()) };
