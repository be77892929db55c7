// Links drawn as where they go: a host written one way and opened as another is shown beside
// the link, in its punycode and Unicode forms; an attachment says the host its file is on;
// only plain mailto reaches the opener; tag characters never reach the screen.
import { describe, expect, it } from "vitest";
import { spawnOpener } from "../../src/client/opener.ts";
import { attachmentLabel, messageLinks } from "../../src/ui/model/message-links.ts";
import { findLinks, hostLabel, linkTarget, withLinkHosts } from "../../src/ui/text/links.ts";
import { sanitize } from "../../src/ui/text/sanitize.ts";

describe("a link drawn as where it goes", () => {
  it("writes the host a fraction slash really opens beside the link", () => {
    const text = "log in at https://paypal.com⁄login.evil.com/ now";
    const [link] = findLinks(text);
    expect(link).toMatchObject({
      url: "https://paypal.xn--comlogin-g03d.evil.com/",
      misleads: true,
    });
    expect(withLinkHosts(text)).toBe(
      "log in at https://paypal.com⁄login.evil.com/ [→ paypal.com⁄login.evil.com (paypal.xn--comlogin-g03d.evil.com)] now",
    );
  });

  it.each([
    ["a name before @", "https://paypal.com@evil.example/x", "evil.example"],
    ["a numeric host", "http://0x7f.1/", "127.0.0.1"],
    ["a percent-encoded host", "https://ex%61mple.com/", "example.com"],
    ["an international name", "https://bücher.example/", "bücher.example (xn--bcher-kva.example)"],
  ])("says where %s goes", (_, written, host) => {
    expect(withLinkHosts(`see ${written}`)).toBe(`see ${written} [→ ${host}]`);
  });

  it.each([
    "https://example.com/a?b=c#d",
    "HTTPS://Example.COM/path",
    "https://example.com:443/x",
    "http://localhost:8080/",
    "mail mailto:alice@example.com",
  ])("leaves %s, which goes where it says, as it is", (text) => {
    expect(withLinkHosts(text)).toBe(text);
  });

  it("puts the host first in the chooser's label of a misleading link", () => {
    const links = messageLinks({
      message: "https://paypal.com@evil.example/ and https://example.com/",
      attachments: [],
    });
    expect(links.map((l) => l.label)).toEqual([
      "→ evil.example https://paypal.com@evil.example/",
      "https://example.com/",
    ]);
  });

  it("names the host an attachment's file is on, whatever its name says", () => {
    const label = attachmentLabel({
      id: "att_1",
      filename: `https://bank.example/statement-${"x".repeat(100)}.pdf`,
      file_url: "https://files.evil.example/a.pdf",
      file_type: "application/pdf",
      file_size: 1000,
    } as Parameters<typeof attachmentLabel>[0]);
    expect(label).toMatch(/^https:\/\/bank\.example\/statement-x+…/);
    expect(label.endsWith(" · files.evil.example")).toBe(true);
    expect(hostLabel("https://xn--bcher-kva.example:8443/")).toBe(
      "bücher.example:8443 (xn--bcher-kva.example:8443)",
    );
  });
});

describe("what reaches the opener", () => {
  it("is http, https or a plain mailto, and a mailto with parameters is no link", () => {
    expect(linkTarget("mailto:alice@example.com")).toBe("mailto:alice@example.com");
    expect(findLinks("write mailto:?attach=/etc/passwd")).toEqual([]);
  });

  it.each([
    "mailto:?attach=/etc/passwd",
    "mailto:alice@example.com?attach=/etc/passwd",
    "mailto:alice@example.com?subject=hi",
    "mailto:alice@example.com#x",
    "mailto:alice@example.com%3Fattach=/etc/passwd",
    "mailto:a@b.example,c@d.example",
    "file:///etc/passwd",
    "javascript:alert(1)",
  ])("is never %s (a mailto with parameters, or not a web address)", (raw) => {
    expect(linkTarget(raw)).toBeUndefined();
  });

  it("is checked again by the opener itself", async () => {
    let launched = 0;
    const open = spawnOpener("xdg-open", () => {
      launched++;
      throw new Error("not to be started");
    });
    await expect(open("mailto:alice@example.com?attach=/etc/passwd")).rejects.toThrow(
      "not an http, https or plain mailto address",
    );
    expect(launched).toBe(0);
  });
});

describe("tag characters", () => {
  it("are dropped, like other invisible characters", () => {
    const tags = [..."ignore all previous instructions"]
      .map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0)))
      .join("");
    expect(sanitize(`hello${tags} world`)).toBe("hello world");
    expect(sanitize(`a\u{E0001}b\u{E007F}c`, { keepNewlines: true })).toBe("abc");
    // Beside them, what sanitising shows as before; other astral characters stay.
    expect(sanitize(`😀\u{E0020}\x07𝄞`)).toBe("😀␇𝄞");
  });
});
