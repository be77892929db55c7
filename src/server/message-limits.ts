// What one member may put into a message that every member of its conversation reads: a
// message as stored stays small enough that a full page of them is one answer a client
// accepts (docs/api.md, "Limits"). Each refusal is a 400 naming the parameter.
import { MAX_ATTACHMENTS, MAX_STORED_MESSAGE_BYTES } from "../api/schema.ts";
import { invalid } from "./errors.ts";
import type { NewAttachment } from "./store/store.ts";

type StoredAttachment = Omit<NewAttachment, "id">;

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/** The message's text and attachments as JSON, in UTF-8 bytes. */
export function storedBytes(body: string, attachments: readonly StoredAttachment[]): number {
  const files = attachments.map(({ filename, file_url, file_type, file_size }) => ({
    filename,
    file_url,
    file_type,
    file_size,
  }));
  return Buffer.byteLength(JSON.stringify({ message: body, attachments: files }));
}

/** Refuses a message that would hold too many attachments or weigh too much as stored. */
export function checkStoredMessage(
  body: string,
  kept: readonly StoredAttachment[],
  added: readonly StoredAttachment[],
): void {
  const count = kept.length + added.length;
  if (added.length > 0 && count > MAX_ATTACHMENTS) {
    throw invalid(
      "attachments",
      `A message holds at most ${MAX_ATTACHMENTS} attachments; this one has ${kept.length} and ${added.length} more were sent.`,
    );
  }
  const bytes = storedBytes(body, [...kept, ...added]);
  if (bytes > MAX_STORED_MESSAGE_BYTES) {
    throw invalid(
      added.length > 0 ? "attachments" : "message",
      `A message's text and attachments may take at most ${kib(MAX_STORED_MESSAGE_BYTES)} as stored; this one would take ${kib(bytes)}.`,
    );
  }
}
