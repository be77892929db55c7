// Finished list pages as JSON text, kept until the database changes. Clients poll the
// open conversation's newest page every few seconds, so the same page is asked for again
// and again; building it (rows, reactions, attachments, JSON) is most of a request's cost.
/** Pages are kept UTF-8 encoded: encoding 20 KB of JSON again for each request costs more than building the response. */
export type PageCache = { get(key: string, build: () => string): Uint8Array };

export function createPageCache(version: () => string, maxPages = 512): PageCache {
  let builtAt = "";
  const pages = new Map<string, Uint8Array>();
  return {
    get(key, build) {
      const now = version();
      if (now !== builtAt) {
        pages.clear();
        builtAt = now;
      }
      let page = pages.get(key);
      if (page === undefined) {
        page = Buffer.from(build());
        if (pages.size >= maxPages) pages.delete(pages.keys().next().value!);
        pages.set(key, page);
      }
      return page;
    },
  };
}

/** Caches nothing: for measuring the uncached path. */
export const noPageCache: PageCache = { get: (_key, build) => Buffer.from(build()) };
