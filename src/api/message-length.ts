// How long a message's text is as the server counts it (code points of the trimmed text,
// at most MAX_MESSAGE_LENGTH in schema.ts), shared so the composer refuses what the server would.
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The length the server checks: the text is trimmed first. */
export const messageLength = (text: string): number => codePoints(text.trim());

/**
 * 10000 as "10,000". Not toLocaleString: at load it would bring ICU's number formats into
 * memory (some 6 MB resident in the client's embedded server) for one comma.
 */
export const groupedDigits = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ",");
