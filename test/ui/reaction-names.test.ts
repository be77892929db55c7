import { describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schema.ts";
import {
  completeReaction,
  isReactionName,
  reactionNameChar,
  usedReactionNames,
} from "../../src/ui/messages/reaction-names.ts";

describe("reaction names", () => {
  it("allows 1 to 32 of a-z 0-9 _ + -", () => {
    expect(isReactionName("+1")).toBe(true);
    expect(isReactionName("ship_it-2")).toBe(true);
    expect(isReactionName("")).toBe(false);
    expect(isReactionName("Wave")).toBe(false);
    expect(isReactionName("a".repeat(33))).toBe(false);
    expect(reactionNameChar("W")).toBe("w");
    expect(reactionNameChar(" ")).toBeUndefined();
  });

  it("completes from the names used here, then every known one, prefix first", () => {
    expect(completeReaction("wav", [])[0]).toBe("wave");
    expect(completeReaction("wav", [])).toContain("wavy_dash");
    expect(completeReaction("yu", ["yum"])[0]).toBe("yum");
    // Used here but unknown to node-emoji: still offered.
    expect(completeReaction("shipi", ["shipit"])).toEqual(["shipit", "shipi"]);
    // Unknown and unused: the typed name itself, last.
    expect(completeReaction("zzqx", [])).toEqual(["zzqx"]);
    expect(completeReaction("ave", []).indexOf("wave")).toBeGreaterThan(-1);
  });

  it("lists the names used on messages, most used first", () => {
    const m = (reactions: Message["reactions"]) => ({ reactions }) as Message;
    expect(
      usedReactionNames([m([{ yum: ["bob"] }]), m([{ wave: ["a", "b"] }, { yum: ["c", "d"] }])]),
    ).toEqual(["yum", "wave"]);
  });
});
