// A message's links: the URLs in its text and its attachments, as they are shown and where
// they go. What `o` opens and `Y` copies, and what the message pane draws as OSC 8 links.
import type { Attachment, Message } from "../../api/schema.ts";
import { fileKind, formatBytes } from "../text/format.ts";
import { findLinks, hostLabel, linkTarget } from "../text/links.ts";
import { sanitize } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";

/** One link of a message: what the chooser calls it, and its address (a `linkTarget`). */
export type MessageLink = { label: string; url: string };

/** Where an attachment lives (`file_url`, or the older `url`), if it is a link parley makes. */
export function attachmentTarget(a: Attachment): string | undefined {
  return linkTarget(a.file_url) ?? linkTarget(a.url);
}

/** How much of an attachment's name shows: the host after it must fit beside it. */
const NAME_COLUMNS = 48;

/**
 * `budget-q3.pdf · PDF · 277 KB · files.example.com`: name, kind and size, as far as the
 * server says them, and the host the file is on (a name can look like any address).
 */
export function attachmentLabel(a: Attachment): string {
  const name = sanitize(a.filename || a.file_url || a.url || "attachment");
  const kind = fileKind(sanitize(a.file_type ?? ""), name);
  const size = typeof a.file_size === "number" ? formatBytes(a.file_size) : "";
  const target = attachmentTarget(a);
  const host = target && hostLabel(target);
  return [truncate(name, NAME_COLUMNS), kind, size, host].filter(Boolean).join(" · ");
}

/** Every link of `message`, in the order shown: its text's URLs, then its attachments. */
export function messageLinks(message: Pick<Message, "message" | "attachments">): MessageLink[] {
  const text = sanitize(message.message, { keepNewlines: true });
  const links: MessageLink[] = findLinks(text).map((l) => ({
    // Where it goes, first, when the text says otherwise (the chooser cuts long labels).
    label: l.misleads
      ? `→ ${hostLabel(l.url)} ${text.slice(l.start, l.end)}`
      : text.slice(l.start, l.end),
    url: l.url,
  }));
  for (const a of message.attachments) {
    const url = attachmentTarget(a);
    if (url) links.push({ label: `📎 ${attachmentLabel(a)}`, url });
  }
  return links;
}
