import { describe, expect, it } from "vitest";
import { findLinks, hyperlink, linkId, linkTarget } from "../../../src/ui/text/links.ts";
import { sanitize } from "../../../src/ui/text/sanitize.ts";
import { displayWidth } from "../../../src/ui/text/width.ts";

const shown = (text: string) => {
  const safe = sanitize(text, { keepNewlines: true });
  return findLinks(safe).map((l) => [safe.slice(l.start, l.end), l.url]);
};

describe("findLinks", () => {
  it("finds http, https and mailto URLs, leaving trailing punctuation out", () => {
    expect(
      shown("see https://example.com/a?b=1. or http://x.org/p, mailto:bob@example.com!"),
    ).toEqual([
      ["https://example.com/a?b=1", "https://example.com/a?b=1"],
      ["http://x.org/p", "http://x.org/p"],
      ["mailto:bob@example.com", "mailto:bob@example.com"],
    ]);
  });

  it("keeps brackets the URL opened and drops the ones around it", () => {
    expect(shown("(https://en.wikipedia.org/wiki/Foo_(bar))")).toEqual([
      ["https://en.wikipedia.org/wiki/Foo_(bar)", "https://en.wikipedia.org/wiki/Foo_(bar)"],
    ]);
    expect(shown("<https://example.com/x>")).toEqual([
      ["https://example.com/x", "https://example.com/x"],
    ]);
  });

  it("links a non-ASCII address by its encoded form, shown as written", () => {
    expect(shown("https://de.wikipedia.org/wiki/Straße")).toEqual([
      ["https://de.wikipedia.org/wiki/Straße", "https://de.wikipedia.org/wiki/Stra%C3%9Fe"],
    ]);
  });

  it("never links other schemes, or a URL inside a word", () => {
    expect(shown("javascript:alert(1) file:///etc/passwd ftp://x.org data:text/html,hi")).toEqual(
      [],
    );
    expect(shown("xhttps://example.com")).toEqual([]);
    expect(shown("https:// nothing, mailto: nobody")).toEqual([]);
  });

  it("never links a run that held an escape or a control byte", () => {
    expect(shown("https://evil.example/\x1b]8;;https://bad.example\x07x")).toEqual([]);
    expect(shown("https://a.example/\x07b")).toEqual([]);
    expect(shown("https://a.example/\x1b[31mred")).toEqual([]);
    expect(shown("https://a.example/\u202eexe")).toEqual([]);
    expect(shown("https://a.example/\u009b31m")).toEqual([]);
    // The next clean URL is still a link.
    expect(shown("https://a.example/\x07b https://ok.example")).toEqual([
      ["https://ok.example", "https://ok.example/"],
    ]);
  });
});

describe("linkTarget", () => {
  it("gives printable ASCII for safe addresses and nothing for the rest", () => {
    expect(linkTarget("https://files.example.com/q3/budget q3.pdf")).toBeUndefined();
    expect(linkTarget("https://files.example.com/q3/budget%20q3.pdf")).toBe(
      "https://files.example.com/q3/budget%20q3.pdf",
    );
    expect(linkTarget("HTTPS://Example.COM")).toBe("https://example.com/");
    for (const bad of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "https://x.example/\x1b\\",
      "https://x.example/\x07",
      "https://x.example/\u009c",
      "https://x.example/\n",
      "data:text/html,x",
      "mailto:",
      "http://",
      "",
      null,
      undefined,
    ]) {
      expect(linkTarget(bad as string), JSON.stringify(bad)).toBeUndefined();
    }
  });
});

describe("hyperlink", () => {
  it("wraps text in OSC 8 with an id, and takes no columns", () => {
    const id = linkId("msg_01:ab/c", 2);
    expect(id).toBe("pmsg_01abc-2");
    const text = hyperlink("example", "https://example.com/", id);
    expect(text).toBe("\x1b]8;id=pmsg_01abc-2;https://example.com/\x1b\\example\x1b]8;;\x1b\\");
    expect(displayWidth(text)).toBe(7);
  });
});
