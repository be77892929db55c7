// A message turned into the terminal lines that show it, already wrapped to the pane's
// width, so the pane can window by line count without asking Ink to measure anything.
// Lines are cached per message object and width: scrolling a long history only lays out
// the messages that come into view.
import type { Message } from "../../api/schema.ts";
import { mentions } from "../model/mentions.ts";
import { attachmentLabel, attachmentTarget } from "../model/message-links.ts";
import { splitQuote } from "../model/quote.ts";
import { includesMe } from "../model/reactions.ts";
import { isPending, WAITING } from "../queries/changes.ts";
import type { OutboxEntry } from "../queries/outbox.ts";
import { clockTime, dayLabel } from "../text/format.ts";
import { findLinks, linkId, withLinkHosts } from "../text/links.ts";
import { sanitize } from "../text/sanitize.ts";
import { displayWidth, terminalForm, truncate } from "../text/width.ts";
import { wrapSpans } from "../text/wrap.ts";
import { emojiFor } from "./emoji.ts";

export type Tone = "self" | "other" | "dim" | "error" | "accent" | "unread" | "mention" | "plain";
/** A hyperlink (OSC 8): `url` is a `linkTarget`; pieces of one link share its `id`. */
export type Link = { url: string; id: string };
/** `sender`: a person's name, drawn in that person's colour (look/sender-color.ts). */
export type Segment = {
  text: string;
  tone?: Tone;
  bold?: boolean;
  inverse?: boolean;
  link?: Link;
  sender?: string;
};
export type Line = Segment[];

/** One row of the pane: a sent message or one still in the outbox. */
export type Item =
  | { kind: "message"; key: string; message: Message }
  | { kind: "outbox"; key: string; entry: OutboxEntry };

export type LayoutContext = {
  width: number;
  me: string | undefined;
  now: number;
  /** Your newest message the other side has read: the one that says "read ✓". */
  readMarkerId?: string;
  /** The first unread message: a "new" divider goes above it. */
  unreadKey?: string;
};

const GROUP_GAP_SECONDS = 10 * 60;
const INDENT = "  ";

function senderOf(item: Item, me: string | undefined): string {
  return item.kind === "outbox" ? (me ?? "") : item.message.contact.username;
}

function timeOf(item: Item): number {
  return item.kind === "outbox"
    ? Math.floor(item.entry.submittedAt / 1000)
    : item.message.created_at;
}

function sameDay(a: number, b: number): boolean {
  return new Date(a * 1000).toDateString() === new Date(b * 1000).toDateString();
}

function reactionsLine(message: Message, me: string | undefined): Line | null {
  if (message.reactions.length === 0) return null;
  const line: Line = [{ text: INDENT }];
  for (const reaction of message.reactions) {
    for (const [name, users] of Object.entries(reaction)) {
      if (users.length === 0) continue;
      const mine = includesMe(users, me);
      line.push({
        text: `${emojiFor(name)} ${users.length}`,
        tone: mine ? "accent" : "plain",
        bold: mine,
      });
      line.push({ text: "  " });
    }
  }
  line.pop();
  return line;
}

/** `📎 budget-q3.pdf · PDF · 277 KB`, the whole line a link to the file when it has one. */
function attachmentLines(message: Message, key: string, firstId: number, width: number): Line[] {
  return message.attachments.map((a, i) => {
    const url = attachmentTarget(a);
    const text = truncate(`📎 ${attachmentLabel(a)}`, Math.max(1, width - INDENT.length));
    return [
      { text: INDENT },
      { text, tone: "accent", ...(url ? { link: { url, id: linkId(key, firstId + i) } } : {}) },
    ];
  });
}

/**
 * The text wrapped below its header, indented. Its links stay links on every line they
 * reach: each piece carries the same address and id, so the terminal joins them. Also how
 * many links the text holds (attachments' link ids come after them).
 */
function bodyLines(
  text: string,
  width: number,
  tone: Tone = "plain",
  key?: string,
): { lines: Line[]; links: number } {
  const safe = sanitize(text, { keepNewlines: true });
  const shown = key === undefined ? safe : withLinkHosts(safe);
  const room = Math.max(1, width - INDENT.length);
  const links = key === undefined ? [] : findLinks(shown);
  const lines = wrapSpans(shown, room).map(({ start, end, tooWide }) => {
    if (tooWide) return [{ text: INDENT + truncate(shown.slice(start, end), room), tone }];
    const line: Line = [{ text: INDENT }];
    let at = start;
    links.forEach((link, n) => {
      const a = Math.max(start, link.start);
      const b = Math.min(end, link.end);
      if (a >= b) return;
      if (a > at) line.push({ text: shown.slice(at, a), tone });
      line.push({ text: shown.slice(a, b), tone, link: { url: link.url, id: linkId(key!, n) } });
      at = b;
    });
    if (end > at || line.length === 1) line.push({ text: shown.slice(at, end), tone });
    return line;
  });
  return { lines, links: links.length };
}

/**
 * bodyLines, with a reply's leading quote (model/quote.ts) apart above it: `▏ bob: …`,
 * dim, one line each, no links.
 */
function quotedBodyLines(
  text: string,
  width: number,
  tone: Tone,
  key: string,
): { lines: Line[]; links: number } {
  const { quote, reply } = splitQuote(text);
  const body = bodyLines(reply, width, tone, key);
  if (quote.length === 0) return body;
  const room = Math.max(1, width - INDENT.length);
  const quoted = quote.map(
    (line): Line => [
      { text: INDENT },
      { text: truncate(`▏ ${sanitize(line)}`, room), tone: "dim" },
    ],
  );
  return { lines: [...quoted, ...body.lines], links: body.links };
}

/** A line across the pane with a label in the middle: `──── Today ────`. */
function divider(text: string, width: number, tone: Tone): Line {
  const label = ` ${text} `;
  const left = Math.max(2, Math.floor((width - label.length) / 2));
  const right = Math.max(2, width - left - label.length);
  return [{ text: `${"─".repeat(left)}${label}${"─".repeat(right)}`, tone }];
}

/** The lines of `item`, given the item before it (for day separators and sender grouping). */
export function layoutItem(item: Item, previous: Item | undefined, ctx: LayoutContext): Line[] {
  const { width, me } = ctx;
  const lines: Line[] = [];
  const time = timeOf(item);
  const newDay = !previous || !sameDay(timeOf(previous), time);
  if (newDay) lines.push(divider(dayLabel(time, ctx.now), width, "dim"));
  const firstUnread = item.key === ctx.unreadKey;
  if (firstUnread) lines.push(divider("new", width, "unread"));
  const sender = senderOf(item, me);
  const mine = me !== undefined && sender === me;
  const grouped =
    !newDay &&
    !firstUnread &&
    previous !== undefined &&
    senderOf(previous, me) === sender &&
    time - timeOf(previous) < GROUP_GAP_SECONDS &&
    previous.kind === item.kind;
  if (item.kind === "outbox") {
    const { entry } = item;
    const state: Segment =
      entry.status === "sending"
        ? { text: " · sending…", tone: "dim" }
        : entry.status === "waiting"
          ? // Not a failure: it goes by itself. No red ✗ on each of a queue.
            { text: ` · ◷ ${WAITING.toLowerCase()} · d drops`, tone: "dim" }
          : { text: " · ✗ not sent · Enter retries · e edits · d drops", tone: "error" };
    lines.push([
      { text: "you", tone: "self", bold: true },
      { text: ` · ${clockTime(time)}`, tone: "dim" },
      state,
    ]);
    lines.push(
      ...quotedBodyLines(entry.text, width, entry.status === "failed" ? "error" : "dim", item.key)
        .lines,
    );
    for (const a of entry.attachments) {
      lines.push([{ text: `${INDENT}📎 ${sanitize(a.filename || a.file_url)}`, tone: "dim" }]);
    }
    // Why, under the text, wrapped whole: a reason cut off at the border helps nobody. Sends
    // waiting for the same reason (a server gone) say it once, under the first of them.
    const saidAbove =
      previous?.kind === "outbox" &&
      previous.entry.status === entry.status &&
      previous.entry.error === entry.error;
    if (entry.status === "failed" && entry.error && !saidAbove) {
      lines.push(...bodyLines(`✗ ${entry.error}`, width, "error").lines);
    } else if (entry.status === "waiting" && entry.error && !saidAbove) {
      lines.push(...bodyLines(`◷ ${entry.error}`, width, "dim").lines);
    }
    return truncateLines(lines, width);
  }
  const { message } = item;
  const readMarker = message.id === ctx.readMarkerId;
  const saving = isPending(message);
  const mentioned = !mine && mentions(message.message, me);
  if (!grouped || message.updated_at !== null || readMarker || saving || mentioned) {
    const header: Line = [
      mine
        ? { text: "you", tone: "self", bold: true }
        : { text: sanitize(sender) || "unknown", tone: "other", bold: true, sender },
      { text: ` · ${clockTime(time)}`, tone: "dim" },
    ];
    if (mentioned) header.push({ text: " · @ mentions you", tone: "mention", bold: true });
    if (message.updated_at !== null) header.push({ text: " · edited", tone: "dim" });
    if (readMarker) header.push({ text: " · read ✓", tone: "dim" });
    if (saving) header.push({ text: " · saving…", tone: "dim" });
    lines.push(header);
  }
  const body = quotedBodyLines(message.message, width, mentioned ? "mention" : "plain", item.key);
  lines.push(...body.lines);
  lines.push(...attachmentLines(message, item.key, body.links, width));
  const reactions = reactionsLine(message, me);
  if (reactions) lines.push(reactions);
  return truncateLines(lines, width);
}

function truncateLines(lines: Line[], width: number): Line[] {
  return lines.map((line) => {
    let room = width;
    const out: Line = [];
    for (const segment of line) {
      if (room <= 0) break;
      const text = truncate(terminalForm(segment.text), room);
      out.push({ ...segment, text });
      room -= displayWidth(text);
    }
    return out;
  });
}

type CacheEntry = {
  previousKey: string | undefined;
  width: number;
  me: string | undefined;
  marked: boolean;
  unread: boolean;
  /** The local day of `ctx.now`: day separators say "Today" and "Yesterday" relative to it. */
  today: string;
  lines: Line[];
};
const cache = new WeakMap<object, CacheEntry>();

let lastNow = Number.NaN;
let lastToday = "";
/** The local calendar day of `now`, worked out once per clock tick rather than per item. */
function dayOf(now: number): string {
  if (now !== lastNow) {
    lastNow = now;
    lastToday = new Date(now * 1000).toDateString();
  }
  return lastToday;
}

/** layoutItem, cached on the message or outbox object (new objects come from new data). */
export function cachedLayout(item: Item, previous: Item | undefined, ctx: LayoutContext): Line[] {
  const owner = item.kind === "message" ? item.message : item.entry;
  const hit = cache.get(owner);
  const previousKey = previous ? `${previous.key}:${timeOf(previous)}` : undefined;
  const marked = item.key === ctx.readMarkerId;
  const unread = item.key === ctx.unreadKey;
  const today = dayOf(ctx.now);
  if (
    hit &&
    hit.width === ctx.width &&
    hit.me === ctx.me &&
    hit.previousKey === previousKey &&
    hit.marked === marked &&
    hit.unread === unread &&
    hit.today === today
  ) {
    return hit.lines;
  }
  const lines = layoutItem(item, previous, ctx);
  cache.set(owner, { previousKey, width: ctx.width, me: ctx.me, marked, unread, today, lines });
  return lines;
}
