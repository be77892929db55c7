// What a terminal answers to parley's start-up queries: its colours (OSC 10/11, asked by
// client/background.ts for the `auto` theme), whether it clusters graphemes (DECRQM for
// mode 2027, client/graphemes.ts) and its Primary Device Attributes (DA1, asked last, so
// a terminal that does not tell its colours is known at once). The answers are read by the start-up code; one that comes late reaches the key dispatcher, which
// must not take it for keys. One set of patterns serves both.

/** `]11;rgb:rrrr/gggg/bbbb` (1 to 4 hex digits a channel, `rgba` with a fourth). */
const COLOUR_BODY = String.raw`\](1[01]);rgba?:([\da-f]{1,4})\/([\da-f]{1,4})\/([\da-f]{1,4})(?:\/[\da-f]{1,4})?`;
/** BEL or ST ends an OSC answer. */
const END = String.raw`(?:\x07|\x1b\\)`;
/** `[?62;22c`. */
const DA1_BODY = String.raw`\[\?[\d;]*c`;
/** A mode's report (DECRPM, the answer to DECRQM): `[?2027;2$y`. */
const MODE_BODY = String.raw`\[\?(\d+);(\d)\$y`;

const COLOUR_REPLY = new RegExp(`\\x1b${COLOUR_BODY}${END}`, "i");
const DA1_REPLY = new RegExp(`\\x1b${DA1_BODY}`);
const MODE_REPLY = new RegExp(`\\x1b${MODE_BODY}`, "g");
const ANY_REPLY = new RegExp(`\\x1b(?:${COLOUR_BODY}${END}|${DA1_BODY}|${MODE_BODY})`, "gi");
/** As the key dispatcher gets one: its ESC may be taken off, its end cut. */
const REPLY_AS_INPUT = new RegExp(`^\\x1b?(?:\\](?:1[01]);rgba?:|${DA1_BODY}$|${MODE_BODY}$)`, "i");

/** The background's channels in an OSC 11 answer found in `text`, as written (hex). */
export function backgroundReply(text: string): [string, string, string] | undefined {
  const m = COLOUR_REPLY.exec(text);
  if (m?.[1] !== "11") return undefined;
  return [m[2]!, m[3]!, m[4]!];
}

/** Whether `text` holds a DA1 answer (every terminal sends one). */
export function hasDeviceAttributes(text: string): boolean {
  return DA1_REPLY.test(text);
}

/** The state (0 to 4) the terminal reports for private mode `mode` in `text`, if it does. */
export function modeReport(text: string, mode: number): number | undefined {
  for (const m of text.matchAll(MODE_REPLY)) {
    if (Number(m[1]) === mode) return Number(m[2]);
  }
  return undefined;
}

/** `text` without the terminal's answers in it: what is left was typed. */
export function withoutTerminalReplies(text: string): string {
  return text.replace(ANY_REPLY, "");
}

/** Whether a key dispatcher's input is a late terminal answer rather than keys. */
export function isTerminalReply(input: string): boolean {
  return REPLY_AS_INPUT.test(input);
}
