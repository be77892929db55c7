// The composer's count of characters near the server's limit, and the refusal of a text
// past it: Enter keeps such a text in the composer rather than send what cannot land.
import { groupedDigits, messageLength } from "../../api/message-length.ts";
import { MAX_MESSAGE_LENGTH } from "../../api/schema.ts";

/** From this many characters on, the composer shows the count against the limit. */
export const COUNT_SHOWN_FROM = 9_000;

export type LengthNote = { text: string; over: boolean };

/** The composer's count row for `text`, or undefined well below the limit. */
export function lengthNote(text: string): LengthNote | undefined {
  // A string's UTF-16 length is never below its code points: most drafts stop here.
  if (text.length < COUNT_SHOWN_FROM) return undefined;
  const count = messageLength(text);
  if (count < COUNT_SHOWN_FROM) return undefined;
  const over = count > MAX_MESSAGE_LENGTH;
  const limit = `${groupedDigits(count)} / ${groupedDigits(MAX_MESSAGE_LENGTH)} characters`;
  return over
    ? { over, text: `${limit}: ${groupedDigits(count - MAX_MESSAGE_LENGTH)} too many to send` }
    : { over, text: limit };
}

/** Why `text` cannot be sent (or saved), in one line; undefined when it can. */
export function tooLongReason(text: string): string | undefined {
  const count = messageLength(text);
  if (count <= MAX_MESSAGE_LENGTH) return undefined;
  return `it has ${groupedDigits(count)} characters and a message holds at most ${groupedDigits(MAX_MESSAGE_LENGTH)}; shorten it (it stays in the composer)`;
}
