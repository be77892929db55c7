// Links: where the URLs are in a message's text, and which addresses are safe to hand to
// the terminal as an OSC 8 hyperlink or to the platform's opener. Pure.
//
// Only http, https and plain mailto (one address, no ?subject= or ?attach=: some mail
// programs attach the file a parameter names). Detection runs on text that `sanitize` has already made
// safe, so what is shown is exactly what would be shown without links; a run of text that
// held anything sanitising had to replace (an escape sequence, a control byte: now a
// placeholder such as ␛ or ␇) is never made a link. The address given to the terminal is
// the URL parser's own form of it: printable ASCII only (non-ASCII percent-encoded, the
// host in punycode), so no byte of it can end the sequence or start another.

import { domainToUnicode } from "node:url";
import { sanitize } from "./sanitize.ts";

/**
 * A URL found in text: `text.slice(start, end)` is what shows, `url` where it goes, and
 * `misleads` when the host as written is not the host it opens (a fraction slash that
 * reads as "/", a name before "@", a percent-encoded or numeric host).
 */
export type FoundLink = { start: number; end: number; url: string; misleads: boolean };

/** One address, as a person writes it after mailto: and nothing else. */
const PLAIN_MAILTO = /^mailto:[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+$/;

const SCHEMES = new Set(["http:", "https:", "mailto:"]);

// A candidate: a scheme at the start of a word, then everything up to whitespace.
const CANDIDATE = /(?<![\p{L}\p{N}])(?:https?:\/\/|mailto:)\S+/giu;
// What sanitising leaves where it replaced something: control pictures, ␡, �.
const PLACEHOLDER = /[\u2400-\u2426\ufffd]/u;
const TRAILING = /[.,;:!?'"’”»>]+$/u;
const PAIRS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/** A closing bracket at the end is part of the URL only if the URL opened it. */
function trimEnd(s: string): string {
  for (;;) {
    const before = s;
    s = s.replace(TRAILING, "");
    const last = s.at(-1);
    if (last !== undefined && PAIRS[last]) {
      const open = PAIRS[last]!;
      const opened = s.split(open).length - 1;
      const closed = s.split(last).length - 1;
      if (closed > opened) s = s.slice(0, -1);
    }
    if (s === before) return s;
  }
}

/**
 * The address to hand to a terminal or an opener for `raw` (a URL as written, in a message
 * or an attachment), or undefined when it is not an http, https or mailto URL, or holds
 * anything that is not plain printable text (control bytes, escapes, placeholders).
 */
export function linkTarget(raw: string | null | undefined): string | undefined {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 8192) return undefined;
  // Anything sanitising would replace, or whitespace: not a URL a person wrote.
  if (/[\s\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(raw)) {
    return undefined;
  }
  if (PLACEHOLDER.test(raw) || /\p{Cs}/u.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (!SCHEMES.has(url.protocol)) return undefined;
  if (url.protocol !== "mailto:" && url.hostname === "") return undefined;
  const href = url.href;
  if (url.protocol === "mailto:" && !PLAIN_MAILTO.test(href)) return undefined;
  // The parser's form is printable ASCII; checked anyway, as it goes inside a sequence.
  return /^[\x21-\x7e]+$/.test(href) ? href : undefined;
}

/** The links in `text`, which must already be sanitised (as it is drawn), in order. */
export function findLinks(text: string): FoundLink[] {
  if (!/(?:https?:\/\/|mailto:)/i.test(text)) return [];
  const found: FoundLink[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const shown = trimEnd(match[0]);
    // A run with a placeholder in it held something hostile: shown, never linked.
    if (PLACEHOLDER.test(match[0])) continue;
    const url = linkTarget(shown);
    if (url === undefined) continue;
    found.push({
      start: match.index,
      end: match.index + shown.length,
      url,
      misleads: misleads(shown, url),
    });
  }
  return found;
}

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/** Whether the host written in `shown` (up to the first / ? # or \\) is not `url`'s host. */
function misleads(shown: string, url: string): boolean {
  const parsed = new URL(url);
  if (parsed.protocol === "mailto:") return false;
  const written = /^[a-z]+:\/\/([^/?#\\]*)/i.exec(shown)?.[1]?.toLowerCase() ?? "";
  const port = DEFAULT_PORTS[parsed.protocol];
  return written !== parsed.host && written !== `${parsed.host}:${port}`;
}

/**
 * The host `url` opens, as a person should read it: its punycode form, and the Unicode one
 * beside it where they differ (`bücher.example (xn--bcher-kva.example)`); undefined for mailto.
 */
export function hostLabel(url: string): string | undefined {
  const parsed = new URL(url);
  if (parsed.protocol === "mailto:") return undefined;
  const port = parsed.port ? `:${parsed.port}` : "";
  const unicode = sanitize(domainToUnicode(parsed.hostname), { strip: true }) + port;
  return unicode === parsed.host || unicode === port ? parsed.host : `${unicode} (${parsed.host})`;
}

/**
 * `text` (sanitised) with the host each misleading link opens written after it, as
 * ` [→ host]`: a link is drawn as where it goes, before anyone opens it.
 */
export function withLinkHosts(text: string): string {
  let out = "";
  let at = 0;
  for (const link of findLinks(text)) {
    if (!link.misleads) continue;
    out += `${text.slice(at, link.end)} [→ ${hostLabel(link.url)}]`;
    at = link.end;
  }
  return at === 0 ? text : out + text.slice(at);
}

/**
 * An OSC 8 `id=` value for link `n` of the item keyed `key`: terminals join every piece
 * with the same id and address into one link (a URL wrapped over several rows).
 */
export function linkId(key: string, n: number): string {
  return `p${key.replace(/[^A-Za-z0-9_-]/g, "").slice(-40)}-${n}`;
}

/** `text` as an OSC 8 hyperlink to `url` (already a `linkTarget`), one piece of link `id`. */
export function hyperlink(text: string, url: string, id: string): string {
  return `\x1b]8;id=${id};${url}\x1b\\${text}\x1b]8;;\x1b\\`;
}
