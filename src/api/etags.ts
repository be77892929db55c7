// Conditional GETs (contract.md "Events"): the last ETag and body of each GET, by URL, so
// that a poll asks with If-None-Match and a 304 (no body) is read as the kept answer. The
// parsed result is then equal to the last one, and TanStack Query, which keeps equal data
// as it was, renders nothing. Bounded: the newest MAX_ENTRIES URLs and MAX_BYTES of bodies.
/** An HTTP answer as the api layer keeps it (http.ts hands these out). */
export type Answer = { status: number; body: string; contentType: string | null };

const MAX_ENTRIES = 64;
const MAX_BYTES = 4 * 1024 * 1024;
/** An ETag longer than this is not kept (a server's mistake, or a way to make us hold it). */
const MAX_TAG = 256;

export type ETags = {
  /** The If-None-Match to send for `url`, when an answer to it is kept. */
  tagFor(url: string): string | undefined;
  /** Keeps `answer` under its ETag (or forgets `url` when it has none). */
  remember(url: string, etag: string | null, answer: Answer): void;
  /** The kept answer for a 304. */
  kept(url: string): Answer | undefined;
};

export function createETags(): ETags {
  const entries = new Map<string, { tag: string; answer: Answer }>();
  let bytes = 0;
  const forget = (url: string) => {
    const entry = entries.get(url);
    if (!entry) return;
    bytes -= entry.answer.body.length;
    entries.delete(url);
  };
  return {
    tagFor: (url) => entries.get(url)?.tag,
    remember(url, etag, answer) {
      forget(url);
      if (!etag || etag.length > MAX_TAG || answer.body.length > MAX_BYTES / 4) return;
      entries.set(url, { tag: etag, answer });
      bytes += answer.body.length;
      for (const oldest of entries.keys()) {
        if (entries.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
        forget(oldest);
      }
    },
    kept(url) {
      const entry = entries.get(url);
      if (!entry) return undefined;
      // The most recently used is the last to go.
      entries.delete(url);
      entries.set(url, entry);
      return entry.answer;
    },
  };
}
