import { describe, expect, it } from "vitest";
import { COMMON_REACTIONS, emojiFor } from "../../src/ui/messages/emoji.ts";
import { displayWidth } from "../../src/ui/text/width.ts";

const isEmoji = (s: string) => /^\p{RGI_Emoji}$/v.test(s);

describe("emojiFor", () => {
  it("maps well-known short codes", () => {
    expect(emojiFor("thumbsup")).toBe("👍");
    expect(emojiFor("+1")).toBe("👍");
    expect(emojiFor("-1")).toBe("👎");
    expect(emojiFor("heart")).toBe("❤️");
    expect(emojiFor("joy")).toBe("😂");
    expect(emojiFor("tada")).toBe("🎉");
    expect(emojiFor("eyes")).toBe("👀");
    expect(emojiFor("fire")).toBe("🔥");
    expect(emojiFor("rocket")).toBe("🚀");
    expect(emojiFor("smile")).toBe("😄");
    expect(emojiFor("ok_hand")).toBe("👌");
    expect(emojiFor("pray")).toBe("🙏");
    expect(emojiFor("100")).toBe("💯");
    expect(emojiFor("white_check_mark")).toBe("✅");
  });

  it("knows aliases node-emoji lacks", () => {
    expect(emojiFor("thumbs_up")).toBe("👍");
    expect(emojiFor("thumbsdown")).toBe("👎");
    expect(emojiFor("party_popper")).toBe("🎉");
  });

  it("ignores surrounding colons, case and whitespace", () => {
    expect(emojiFor(":tada:")).toBe("🎉");
    expect(emojiFor("Heart")).toBe("❤️");
    expect(emojiFor(" fire ")).toBe("🔥");
  });

  it("shows unknown codes as :name:, sanitised", () => {
    expect(emojiFor("not_an_emoji")).toBe(":not_an_emoji:");
    expect(emojiFor(":nope:")).toBe(":nope:");
    expect(emojiFor("x\x1b[2Jy")).toBe(":x␛y:");
    expect(emojiFor("a\u202Eb")).toBe(":a�b:");
    expect(emojiFor("__proto__")).toBe(":__proto__:");
    expect(emojiFor("")).toBe("::");
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
