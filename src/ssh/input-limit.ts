// What one `parley ssh` session may type. Keys (anything outside a bracketed paste, counted
// in characters) come in a burst of KEYS_BURST, then KEYS_PER_SECOND: far beyond a person
// at a keyboard or a mouse, and each of them is a keypress for the client to handle (a paste of 1 MiB
// sent as plain keys once held the other sessions of its worker for seconds). A bracketed
// paste, which the client takes whole, may bring PASTE_BURST_BYTES at once (the longest
// message fits), then PASTE_PER_SECOND. Past either, input is dropped until it pauses for
// QUIET_MS, and the session is told once; a bracketed paste cut short is closed, so the
// client does not wait for its end.

export const KEYS_BURST = 2 * 1024;
export const KEYS_PER_SECOND = 2 * 1024;
export const PASTE_BURST_BYTES = 256 * 1024;
export const PASTE_PER_SECOND = 64 * 1024;
const QUIET_MS = 250;
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const MARKERS = /\x1b\[20[01]~/g;

export type InputTake = {
  /** What goes on to the client; undefined: nothing. */
  pass: Buffer | undefined;
  /** Bytes dropped from this chunk. */
  cut: number;
  /** The first chunk cut since input was last let through whole: time to say so. */
  first: boolean;
};

type Bucket = { tokens: number; burst: number; perSecond: number };

export function inputLimit(now: () => number = () => Date.now()) {
  const keys: Bucket = {
    tokens: KEYS_BURST,
    burst: KEYS_BURST,
    perSecond: KEYS_PER_SECOND,
  };
  const paste: Bucket = {
    tokens: PASTE_BURST_BYTES,
    burst: PASTE_BURST_BYTES,
    perSecond: PASTE_PER_SECOND,
  };
  let last = now();
  let lastChunk = Number.NEGATIVE_INFINITY;
  let cutting = false;
  let inPaste = false;

  /**
   * Where `text[at, end)` (latin1, one char a byte) stops fitting in `bucket`, taking what
   * fits: keys are counted in characters (UTF-8 continuation bytes are free, so an emoji
   * is one key and is never cut in two), a paste in bytes.
   */
  function take(text: string, at: number, end: number, bucket: Bucket): number {
    let room = Math.max(0, Math.floor(bucket.tokens));
    if (bucket === paste) {
      const kept = Math.min(end - at, room);
      bucket.tokens -= kept;
      return at + kept;
    }
    let i = at;
    for (; i < end; i++) {
      if ((text.charCodeAt(i) & 0xc0) === 0x80) continue;
      if (room === 0) break;
      room--;
      bucket.tokens--;
    }
    return i;
  }

  /** How much of `text` fits, segment by segment; `inPaste` follows the markers passed. */
  function fits(text: string): number {
    let at = 0;
    const segments = [...text.matchAll(MARKERS), null];
    for (const marker of segments) {
      const end = marker ? marker.index : text.length;
      const upTo = take(text, at, end, inPaste ? paste : keys);
      if (upTo < end) return upTo;
      if (!marker) return text.length;
      inPaste = marker[0] === PASTE_START;
      at = end + marker[0].length;
    }
    return text.length;
  }

  return {
    take(data: Buffer): InputTake {
      const at = now();
      for (const bucket of [keys, paste]) {
        bucket.tokens = Math.min(
          bucket.burst,
          bucket.tokens + ((at - last) / 1000) * bucket.perSecond,
        );
      }
      last = at;
      const quiet = at - lastChunk >= QUIET_MS;
      lastChunk = at;
      if (cutting && !quiet) return { pass: undefined, cut: data.length, first: false };
      const kept = fits(data.toString("latin1"));
      if (kept === data.length) {
        cutting = false;
        return { pass: data, cut: 0, first: false };
      }
      let pass = data.subarray(0, kept);
      if (inPaste) {
        pass = Buffer.concat([pass, Buffer.from(PASTE_END, "latin1")]);
        inPaste = false;
      }
      const first = !cutting;
      cutting = true;
      return { pass: pass.length > 0 ? pass : undefined, cut: data.length - kept, first };
    },
  };
}
