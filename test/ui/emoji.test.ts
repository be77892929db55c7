import { describe, expect, it } from "vitest";
import { COMMON_REACTIONS, emojiFor } from "../../src/ui/messages/emoji.ts";
import { displayWidth } from "../../src/ui/text/width.ts";

const isEmoji = (s: string) => /^\p{RGI_Emoji}$/v.test(s);

/** Each short code (the key) gives its emoji (the value). */
function expectEmoji(table: Record<string, string>) {
  for (const [code, emoji] of Object.entries(table)) expect(emojiFor(code), code).toBe(emoji);
}

describe("emojiFor", () => {
  it("maps well-known short codes", () => {
    expectEmoji({ thumbsup: "👍", "+1": "👍", "-1": "👎", heart: "❤️", joy: "😂", tada: "🎉" });
    expectEmoji({ eyes: "👀", fire: "🔥", rocket: "🚀", smile: "😄", ok_hand: "👌", pray: "🙏" });
    expectEmoji({ 100: "💯", white_check_mark: "✅" });
  });

  it("knows aliases node-emoji lacks", () => {
    expectEmoji({ thumbs_up: "👍", thumbsdown: "👎", party_popper: "🎉" });
  });

  it("ignores surrounding colons, case and whitespace", () => {
    expectEmoji({ ":tada:": "🎉", Heart: "❤️", " fire ": "🔥" });
  });

  it("shows unknown codes as :name:, sanitised", () => {
    expectEmoji({ not_an_emoji: ":not_an_emoji:", ":nope:": ":nope:", "x\x1b[2Jy": ":x␛y:" });
    expectEmoji({ "a\u202Eb": ":a�b:", "": "::" });
    // Not an own property of the table: asked for on its own.
    expect(emojiFor("__proto__")).toBe(":__proto__:");
  });

  it("never throws on junk", () => {
    expect(() => emojiFor(undefined as unknown as string)).not.toThrow();
    expect(() => emojiFor(7 as unknown as string)).not.toThrow();
  });
});

describe("COMMON_REACTIONS", () => {
  it("is a short ordered list of distinct codes that all map to an emoji of a stable width", () => {
    expect(COMMON_REACTIONS.length).toBeGreaterThanOrEqual(8);
    expect(COMMON_REACTIONS.length).toBeLessThanOrEqual(10);
    expect(COMMON_REACTIONS[0]).toBe("thumbsup");
    expect(new Set(COMMON_REACTIONS).size).toBe(COMMON_REACTIONS.length);
    const emoji = COMMON_REACTIONS.map(emojiFor);
    for (const e of emoji) {
      expect(isEmoji(e)).toBe(true);
      // ❤️ is drawn without its VS16 (see terminalForm), one column, as tmux draws it.
      expect(displayWidth(e)).toBe(e === "❤️" ? 1 : 2);
    }
    expect(new Set(emoji).size).toBe(emoji.length);
  });

  it("uses codes the API accepts as reaction names", () => {
    for (const code of COMMON_REACTIONS) expect(code).toMatch(/^[a-z0-9_+-]{1,32}$/);
  });
});
