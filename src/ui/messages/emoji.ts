// Reaction short codes -> emoji. node-emoji (emojilib names) knows most; a few common
// Slack / GitHub spellings it lacks are aliased here.
import { get } from "node-emoji";
import { sanitize } from "../text/sanitize.ts";

const ALIASES: ReadonlyMap<string, string> = new Map([
  ["thumbsup", "👍"],
  ["thumbs_up", "👍"],
  ["thumbsdown", "👎"],
  ["thumbs_down", "👎"],
  ["party_popper", "🎉"],
  ["red_heart", "❤️"],
  ["laughing_crying", "😂"],
  ["check", "✅"],
  ["simple_smile", "🙂"],
  ["shrug", "🤷"],
  ["facepalm", "🤦"],
]);

/** Short codes offered by the reaction picker, in order; each one maps to an emoji. */
export const COMMON_REACTIONS: readonly string[] = [
  "thumbsup",
  "heart",
  "joy",
  "tada",
  "eyes",
  "fire",
  "pray",
  "100",
  "rocket",
  "white_check_mark",
];

/**
 * The emoji for a short code ("thumbsup", "+1", ":tada:"; case and surrounding colons do not
 * matter); an unknown one comes back as ":name:", sanitised. Never throws.
 */
export function emojiFor(shortcode: string): string {
  const raw = typeof shortcode === "string" ? shortcode : String(shortcode ?? "");
  const name = raw.trim().replace(/^:(.+):$/, "$1");
  const key = name.toLowerCase();
  const known = ALIASES.get(key) ?? get(key);
  return known ?? `:${sanitize(name)}:`;
}
