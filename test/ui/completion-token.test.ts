// What the composer's completion reads at the cursor, and what it offers and writes.
import { describe, expect, it } from "vitest";
import {
  applyCompletion,
  completeName,
  completionToken,
} from "../../src/ui/composer/completion.ts";
import { completeEmoji } from "../../src/ui/messages/reaction-names.ts";

const at = (value: string, cursor = value.length) => ({ value, cursor });

describe("the token at the cursor", () => {
  it("is an @name or a :emoji at the end of a word", () => {
    expect(completionToken(at("hi @ca"))).toEqual({ kind: "name", start: 3, query: "ca" });
    expect(completionToken(at("@"))).toEqual({ kind: "name", start: 0, query: "" });
    expect(completionToken(at("ship it :tad"))).toEqual({ kind: "emoji", start: 8, query: "tad" });
    // In the middle of a draft, before a space.
    expect(completionToken(at("hi @ca there", 6))).toEqual({ kind: "name", start: 3, query: "ca" });
  });

  it("is nothing in times, smileys, addresses or inside a word", () => {
    for (const text of ["at 10:30", "ok :)", ":a", "bob@alice.dev", "mail me@", "hi @ca"]) {
      const cursor = text === "hi @ca" ? 5 : text.length;
      expect(completionToken(at(text, cursor)), text).toBeUndefined();
    }
  });

  it("reads only the end of a long draft", () => {
    const long = `${"word ".repeat(4_000)}@da`;
    expect(completionToken(at(long))).toEqual({
      kind: "name",
      start: long.length - 3,
      query: "da",
    });
    expect(completionToken(at(`${"a".repeat(10_000)}@da`))).toBeUndefined();
  });
});

describe("the choices", () => {
  it("put the conversation's people first, leave you out, and starts before contains", () => {
    const names = completeName("a", ["dave", "alice", "carol"], ["anna", "frank", "dave"], "alice");
    expect(names.map((c) => c.text)).toEqual(["@anna", "@dave", "@carol", "@frank"]);
    expect(completeName("", ["dave"], ["bob"], "alice").map((c) => c.text)).toEqual([
      "@dave",
      "@bob",
    ]);
  });

  it("give emoji for their names, the emoji itself to write", () => {
    const tada = completeEmoji("tad");
    expect(tada[0]).toEqual({ shown: "🎉 :tada:", text: "🎉" });
    expect(completeEmoji("zzzzqq")).toEqual([]);
  });

  it("write the choice in the token's place, with one space after it", () => {
    const draft = at("hi @ca there", 6);
    const token = completionToken(draft)!;
    expect(applyCompletion(draft, token, { shown: "@carol", text: "@carol" })).toEqual({
      value: "hi @carol there",
      cursor: 10,
    });
    const end = at("hi @ca");
    expect(applyCompletion(end, completionToken(end)!, { shown: "", text: "@carol" })).toEqual({
      value: "hi @carol ",
      cursor: 10,
    });
  });
});
