// At most a few requests of one `parley ssh` session to the embedded API at once. A client
// starts by asking for every sidebar row's newest messages together, and each request in
// flight takes a connection of its own: some 25 per session, 500 for twenty sessions, and
// as many again on the API's side, each with its buffers in both threads. Queued, they
// share a few kept-alive connections. The event stream, open for the whole session, does
// not count.
export const SESSION_REQUESTS_AT_ONCE = 4;

function isEventStream(init: RequestInit | undefined): boolean {
  const headers = new Headers(init?.headers);
  return /text\/event-stream/i.test(headers.get("accept") ?? "");
}

export function limitedFetch(
  max = SESSION_REQUESTS_AT_ONCE,
  // Node's own fetch here, not httpFetch (api/http.ts): one worker thread serves many
  // sessions, so undici's fixed cost is shared, and its sessions measured a little lighter
  // with it (4.3 to 4.6 MiB each against 4.8 to 4.9; back within 10 to 17 % after they
  // left, against 17 to 18: `npm run bench`'s ssh rows, two alternating runs each).
  fetch: typeof globalThis.fetch = globalThis.fetch,
): typeof globalThis.fetch {
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = (signal: AbortSignal | null | undefined) =>
    new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener("abort", gone);
        resolve();
      };
      const gone = () => {
        const at = waiting.indexOf(go);
        if (at >= 0) waiting.splice(at, 1);
        reject(signal!.reason);
      };
      waiting.push(go);
      signal?.addEventListener("abort", gone, { once: true });
    });
  return async (input, init) => {
    if (isEventStream(init)) return fetch(input, init);
    init?.signal?.throwIfAborted();
    if (running >= max) await turn(init?.signal);
    running++;
    try {
      return await fetch(input, init);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
