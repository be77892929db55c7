// Sanitising: text from the server made safe to print. Pure; runs on every visible line of
// every frame, so text with nothing to replace is returned as it is, without allocating.
//
// What `sanitize` shows in place of things that could drive the terminal (all printable,
// one column wide, so a reader sees that something was there and layout stays exact):
//   ␀ … ␟  (U+2400 + code)  a C0 control character: ␇ BEL, ␈ BS, ␍ a lone CR, ␛ a lone ESC.
//                           "\n" is kept with `keepNewlines`, else shown as ␊; "\r\n" counts
//                           as one newline. Tabs become spaces (`tabWidth`, default 4).
//   ␡  (U+2421)             DEL.
//   ␛  (U+241B)             a whole escape sequence, 7-bit or 8-bit: CSI (ESC [ … final),
//                           OSC (ESC ] … BEL | ST), DCS / SOS / PM / APC (ESC P|X|^|_ … ST),
//                           and the short ones (ESC 7, ESC ( B, ESC c …). An unterminated
//                           sequence only loses its introducer; the rest shows as plain text.
//   �  (U+FFFD)             a C1 control (U+0080–U+009F) that starts no complete sequence, a
//                           bidi control (U+061C, U+200E/F, U+202A–E, U+2066–9), a lone
//                           surrogate.
// U+2028 / U+2029 (line / paragraph separator) count as newlines. Tag characters (U+E0000–
// U+E007F: invisible, yet they carry text a reader never sees) are dropped, like the other
// invisible characters Output leaves out.
import { terminalForm } from "./width.ts";

export type SanitizeOptions = {
  /** Keep "\n" (and turn "\r\n", U+2028, U+2029 into "\n") instead of showing ␊. */
  keepNewlines?: boolean;
  /** Remove unsafe characters instead of showing placeholders (for pasted drafts); without
   * `keepNewlines` a newline becomes a space. */
  strip?: boolean;
  /** Spaces per tab, default 4. */
  tabWidth?: number;
};

const ESC_MARK = "\u241b";
const DEL_MARK = "\u2421";
const BAD_MARK = "\ufffd";
const LF_MARK = "\u240a";
/** U+E0000–U+E007F, the tag characters, in UTF-16: 0xDB40 then 0xDC00–0xDC7F. */
const TAG_HIGH = 0xdb40;
const TAG_LOW_LAST = 0xdc7f;

// Anything `sanitize` has to look at. `\p{Cs}` in a `u` regex matches only lone surrogates.
const UNSAFE =
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\p{Cs}\u{E0000}-\u{E007F}]/u;
const UNSAFE_EXCEPT_LF =
  /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\p{Cs}\u{E0000}-\u{E007F}]/u;

/** Bidi controls, and U+2028 / U+2029 (line / paragraph separator). */
function isBidiOrSeparator(c: number): boolean {
  return (
    c === 0x061c ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x200e ||
    c === 0x200f ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069)
  );
}

/** C1 introducers of control strings: DCS, SOS, OSC, PM, APC. */
function isStringIntroducerC1(c: number): boolean {
  return c === 0x90 || c === 0x98 || c === 0x9d || c === 0x9e || c === 0x9f;
}

/** End of a CSI body starting at `j` (after ESC [ or U+009B), or -1 when incomplete. */
function csiEnd(s: string, j: number): number {
  const n = s.length;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c >= 0x20 && c <= 0x3f) j++;
    else return c >= 0x40 && c <= 0x7e ? j + 1 : -1;
  }
  return -1;
}

/**
 * End of a control string (OSC / DCS / SOS / PM / APC) body starting at `j`, or -1 when it is
 * not terminated (by BEL, ESC \ or U+009C) before another ESC, another introducer, or the end.
 * Stopping at the next introducer keeps hostile input linear.
 */
function controlStringEnd(s: string, j: number): number {
  const n = s.length;
  for (; j < n; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x07 || c === 0x9c) return j + 1;
    if (c === 0x1b) return s.charCodeAt(j + 1) === 0x5c ? j + 2 : -1;
    if (c === 0x9b || isStringIntroducerC1(c)) return -1;
  }
  return -1;
}

/** End of the escape sequence whose ESC is at `i`, or -1 for a lone ESC. */
function escapeEnd(s: string, i: number): number {
  const next = s.charCodeAt(i + 1); // NaN at the end
  if (next === 0x5b) return csiEnd(s, i + 2); // [
  if (next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) {
    return controlStringEnd(s, i + 2); // ] P X ^ _
  }
  // nF / Fp / Fe / Fs: intermediates 0x20–0x2F, then a final byte 0x30–0x7E.
  let j = i + 1;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c >= 0x20 && c <= 0x2f) j++;
    else return c >= 0x30 && c <= 0x7e ? j + 1 : -1;
  }
  return -1;
}

/**
 * Makes text from the server safe to print: nothing that could move the cursor, change
 * colours, set the title, write the clipboard or reorder text survives. See the table at the
 * top of this file for what replaces what. Idempotent (for the same options), never throws.
 */
export function sanitize(s: string, options?: SanitizeOptions): string {
  if (typeof s !== "string") s = s == null ? "" : String(s);
  const keepNewlines = options?.keepNewlines === true;
  if (!(keepNewlines ? UNSAFE_EXCEPT_LF : UNSAFE).test(s)) return s;
  const strip = options?.strip === true;
  const tabWidth = Math.max(0, Math.min(16, Math.floor(options?.tabWidth ?? 4) || 0));
  const newline = keepNewlines ? "\n" : strip ? " " : LF_MARK;
  const esc = strip ? "" : ESC_MARK;
  const bad = strip ? "" : BAD_MARK;

  let out = "";
  let copied = 0; // s[copied, i) is safe and not yet appended
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) {
      i++;
      continue;
    }
    if (c >= 0xa0 && (c < 0xd800 || c > 0xdfff) && !isBidiOrSeparator(c)) {
      i++;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (c !== TAG_HIGH || d > TAG_LOW_LAST) {
          i += 2;
          continue;
        }
        // A tag character: dropped.
        if (i > copied) out += s.slice(copied, i);
        i += 2;
        copied = i;
        continue;
      }
    }
    if (c === 0x0a && keepNewlines) {
      i++;
      continue;
    }
    // Something to replace: flush the safe run before it.
    if (i > copied) out += s.slice(copied, i);
    let replacement: string;
    let end = i + 1;
    if (c === 0x1b) {
      const e = escapeEnd(s, i);
      if (e > 0) end = e;
      replacement = esc;
    } else if (c === 0x9b || isStringIntroducerC1(c)) {
      const e = c === 0x9b ? csiEnd(s, i + 1) : controlStringEnd(s, i + 1);
      if (e > 0) end = e;
      replacement = e > 0 ? esc : bad;
    } else if (c === 0x0a || c === 0x2028 || c === 0x2029) {
      replacement = newline;
    } else if (c === 0x0d) {
      if (s.charCodeAt(i + 1) === 0x0a) {
        end = i + 2;
        replacement = newline;
      } else {
        replacement = strip ? "" : "\u240d";
      }
    } else if (c === 0x09) {
      replacement = " ".repeat(tabWidth);
    } else if (c < 0x20) {
      replacement = strip ? "" : String.fromCharCode(0x2400 + c);
    } else if (c === 0x7f) {
      replacement = strip ? "" : DEL_MARK;
    } else {
      replacement = bad; // C1, bidi control, lone surrogate
    }
    out += replacement;
    i = end;
    copied = end;
  }
  return out + s.slice(copied);
}

/** Server text as it is drawn: sanitised, in its terminal form. */
export function screenText(s: string, options?: SanitizeOptions): string {
  return terminalForm(sanitize(s, options));
}
