import { describe, expect, it } from "vitest";
import { mentions, notifyLevel, shouldNotify } from "../../src/ui/model/mentions.ts";

describe("mentions", () => {
  it("finds @you as a whole name, in any case", () => {
    expect(mentions("hey @alice, look", "alice")).toBe(true);
    expect(mentions("@Alice!", "alice")).toBe(true);
    expect(mentions("(@alice)", "alice")).toBe(true);
    expect(mentions("@alicebob", "alice")).toBe(false);
    expect(mentions("mail alice@alice.org", "alice")).toBe(false);
    expect(mentions("alice", "alice")).toBe(false);
    expect(mentions("@alice", undefined)).toBe(false);
    expect(mentions("@a.b", "a.b")).toBe(true);
    expect(mentions("@axb", "a.b")).toBe(false);
    // A reply quoting a message that named you names you only in its own words.
    expect(mentions("> bob: @alice can you?\nsure, on it", "alice")).toBe(false);
    expect(mentions("> bob: the deploy\n@alice on it?", "alice")).toBe(true);
  });
});

describe("what rings", () => {
  const m = (conversation_id: string, message: string) => ({ conversation_id, message });
  it("follows the global level, overridden per conversation", () => {
    const settings = { level: "mentions" as const, conversations: { grp_team: "all" as const } };
    expect(notifyLevel(undefined, "x")).toBe("all");
    expect(shouldNotify(settings, m("grp_launch", "hello"), "alice")).toBe(false);
    expect(shouldNotify(settings, m("grp_launch", "hello @alice"), "alice")).toBe(true);
    expect(shouldNotify(settings, m("grp_team", "hello"), "alice")).toBe(true);
    expect(shouldNotify({ level: "none" }, m("c", "@alice"), "alice")).toBe(false);
    expect(shouldNotify(undefined, m("c", "anything"), "alice")).toBe(true);
  });
});
