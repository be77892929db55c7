// Each sender's name in a colour of its own, the same on every screen: picked from the
// theme's sender palette by a hash of the user name (FNV-1a), so it needs no memory and
// agrees between conversations, sessions and runs. The palette never holds your own colour.
import type { Theme } from "./theme.ts";

/** FNV-1a over the UTF-16 units of `text`: small, fast, and spreads similar names apart. */
export function nameHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The colour of `username`'s name in `theme`; undefined without colour. */
export function senderColor(theme: Theme, username: string): string | undefined {
  const palette = theme.senders;
  if (palette.length === 0) return theme.other;
  return palette[nameHash(username) % palette.length];
}
