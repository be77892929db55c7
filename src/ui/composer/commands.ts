// What the composer's Enter means: a draft that starts with `/` is a command (`/attach URL
// [file name]`, `/attach PATH`, `/detach [N]`), `//` sends the text with one leading `/`,
// a file's path alone is offered as an attachment, anything else is the message. Also how an attachment is made from a URL: the file name from the URL's
// path unless given, the type from the extension. Pure, so every rule is tested alone.
import { fileKind } from "../text/format.ts";
import { sanitize } from "../text/sanitize.ts";

/** An attachment of the message being written, as it will be sent. */
export type DraftAttachment = {
  file_url: string;
  filename: string;
  file_type?: string;
  /** Known for an uploaded file (the server said). */
  file_size?: number;
};

/** The most attachments one message takes (the reference server's limit per request). */
export const MAX_ATTACHMENTS = 20;

export type ComposerInput =
  | { kind: "text"; text: string }
  | { kind: "attach"; attachment: DraftAttachment }
  /** `/attach PATH`: a file from the person's disk, to upload. */
  | { kind: "upload"; path: string }
  /** A path alone (pasted, or a file dropped on the terminal): perhaps a file to attach. */
  | { kind: "path"; path: string; text: string }
  | { kind: "detach"; which: number | "last" }
  /** A known command used wrongly: what did not happen and why, for the status bar. */
  | { kind: "refused"; heading: string; reason: string }
  | { kind: "unknown"; command: string };

/** The commands, for the help and the README (test/e2e/help.test.ts holds it to them). */
export const COMPOSER_COMMANDS = [
  {
    usage: "/attach URL [file name]",
    does: "attach a file by its http(s) URL (named after it unless given)",
  },
  {
    usage: "/attach PATH",
    does: "upload a file from your disk (~/notes.pdf) and attach it; a path alone asks",
  },
  { usage: "/detach [N]", does: "remove the last attachment, or the Nth" },
  { usage: "//…", does: "send text that starts with / (one / is dropped)" },
] as const;

/** The README's table of composer commands, as markdown. */
export function readmeCommandTable(): string {
  const lines = ["| command | does |", "|---|---|"];
  for (const c of COMPOSER_COMMANDS) lines.push(`| \`${c.usage}\` | ${c.does} |`);
  return `${lines.join("\n")}\n`;
}

const NOT_ATTACHED = "Not attached";
const NOT_REMOVED = "Nothing removed";

/** What a draft asks for when Enter is pressed. */
export function parseComposerInput(draft: string): ComposerInput {
  const alone = pathAlone(draft);
  if (alone !== undefined) return { kind: "path", path: alone, text: draft };
  if (!draft.startsWith("/")) return { kind: "text", text: draft };
  if (draft.startsWith("//")) return { kind: "text", text: draft.slice(1) };
  const [, name = "", rest = ""] = /^\/(\S*)\s*([\s\S]*)$/.exec(draft.trim()) ?? [];
  switch (name.toLowerCase()) {
    case "attach": {
      if (rest !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(rest)) {
        return { kind: "upload", path: unquotePath(rest) };
      }
      const made = attachmentFromLine(rest);
      return "reason" in made
        ? { kind: "refused", heading: NOT_ATTACHED, reason: made.reason }
        : made;
    }
    case "detach": {
      if (rest === "") return { kind: "detach", which: "last" };
      const n = /^\d+$/.test(rest) ? Number(rest) : Number.NaN;
      return n >= 1
        ? { kind: "detach", which: n }
        : { kind: "refused", heading: NOT_REMOVED, reason: "usage: /detach [N] (N counts from 1)" };
    }
    default:
      return { kind: "unknown", command: `/${name}` };
  }
}

/**
 * A path as a terminal pastes it: in quotes, or with its spaces escaped (a file dropped on
 * the window), or as typed.
 */
export function unquotePath(text: string): string {
  const t = text.trim();
  const quoted = /^(['"])([\s\S]*)\1$/.exec(t);
  if (quoted) return quoted[2]!;
  return t.replace(/\\(.)/g, "$1");
}

/**
 * The path, when a draft is nothing but one: a line that starts with `/` (with a second
 * `/` after its first name), `~/`, or either in quotes. `/attach x` and `//x` are not.
 */
function pathAlone(draft: string): string | undefined {
  const line = draft.trim();
  if (line.includes("\n") || line.startsWith("//")) return undefined;
  const path = unquotePath(line);
  const quoted = path !== line;
  if (/^~\/\S/.test(path)) return path;
  if (/^\/[^/\s]+\/\S/.test(path) && (quoted || !/\s/.test(line))) return path;
  return undefined;
}

/** Common types by extension; any other is left out (the contract makes it optional). */
const FILE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  heic: "image/heic",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  json: "application/json",
  xml: "application/xml",
  zip: "application/zip",
  gz: "application/gzip",
  tgz: "application/gzip",
  tar: "application/x-tar",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/** The MIME type a file name's extension says, if it is a common one. */
export function fileTypeOf(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return FILE_TYPES[name.slice(dot + 1).toLowerCase()];
}

/** The last part of the URL's path, decoded; the host when the path has none. */
function nameFromUrl(url: URL): string {
  const last = url.pathname.split("/").filter(Boolean).pop();
  if (!last) return url.hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const MAX_URL = 2048;
const MAX_NAME = 255;

/** An attachment for `url`, or why it cannot be one (only http and https are taken). */
export function attachmentFrom(
  text: string,
  filename?: string,
): { kind: "attach"; attachment: DraftAttachment } | { reason: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { reason: `"${clip(text)}" is not a web address (http or https)` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { reason: `only http and https addresses can be attached, not ${url.protocol}` };
  if (text.length > MAX_URL) return { reason: `the address is over ${MAX_URL} characters` };
  const name = filename || nameFromUrl(url);
  if (name.length > MAX_NAME) return { reason: `the file name is over ${MAX_NAME} characters` };
  const type = fileTypeOf(name) ?? fileTypeOf(nameFromUrl(url));
  return {
    kind: "attach",
    attachment: { file_url: text, filename: name, ...(type ? { file_type: type } : {}) },
  };
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** An attachment from `URL [file name]` (what /attach and the A prompt take). */
export function attachmentFromLine(line: string): ReturnType<typeof attachmentFrom> {
  const [, url, filename] = /^(\S+)\s*([\s\S]*)$/.exec(line.trim()) ?? [];
  if (!url) return { reason: "usage: /attach URL [file name], or /attach PATH" };
  return attachmentFrom(url, filename?.replace(/\s+/g, " ").trim());
}

/** The attachments without the one `/detach` names, or why none can go. */
export function detach(
  list: readonly DraftAttachment[],
  which: number | "last",
): { list: DraftAttachment[]; removed: DraftAttachment } | { reason: string } {
  if (list.length === 0) return { reason: "the message has no attachments" };
  const index = which === "last" ? list.length - 1 : which - 1;
  const removed = list[index];
  if (!removed)
    return {
      reason: `there is no attachment ${which}, only ${list.length}`,
    };
  return { list: list.filter((_, i) => i !== index), removed };
}

/**
 * The text of a message sent with attachments and nothing typed: the contract wants 1 to
 * 10,000 characters, so the file names stand in.
 */
export function textForAttachments(list: readonly DraftAttachment[]): string {
  return list.map((a) => a.filename).join(", ");
}

/** How an attachment shows above the draft: `📎 name · KIND`, the kind as once it is sent. */
export function attachmentLabel(a: DraftAttachment): string {
  const kind = fileKind(sanitize(a.file_type ?? ""), a.filename);
  return `📎 ${a.filename}${kind ? ` · ${kind}` : ""}`;
}
