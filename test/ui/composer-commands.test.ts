import { describe, expect, it } from "vitest";
import {
  attachmentFrom,
  attachmentLabel,
  type ComposerInput,
  detach,
  fileTypeOf,
  parseComposerInput,
  readmeCommandTable,
  textForAttachments,
} from "../../src/ui/composer/commands.ts";

/** Each draft parses to exactly its ComposerInput. */
function expectParsed(cases: [string, ComposerInput][]) {
  for (const [draft, parsed] of cases) expect(parseComposerInput(draft), draft).toEqual(parsed);
}

/** What /attach URL makes: the attachment with its name and, when known, its type. */
const attached = (file_url: string, filename: string, file_type?: string): ComposerInput => ({
  kind: "attach",
  attachment: { file_url, filename, ...(file_type ? { file_type } : {}) },
});

describe("parseComposerInput", () => {
  it("takes /attach without a scheme as a file on disk, quoted or escaped as pasted", () => {
    for (const [draft, path] of [
      ["/attach ~/notes.pdf", "~/notes.pdf"],
      ["/attach notes", "notes"],
      ["/attach ~/my notes.pdf", "~/my notes.pdf"],
      ["/attach '/tmp/a b.pdf'", "/tmp/a b.pdf"],
      ["/attach /tmp/a\\ b.pdf", "/tmp/a b.pdf"],
    ] as const) {
      expect(parseComposerInput(draft), draft).toEqual({ kind: "upload", path });
    }
  });

  it("offers a path alone as a file, and leaves commands and sentences alone", () => {
    expect(parseComposerInput("'/home/me/my notes.pdf' ")).toMatchObject({
      kind: "path",
      path: "/home/me/my notes.pdf",
    });
    expect(parseComposerInput("~/x.png")).toMatchObject({ kind: "path", path: "~/x.png" });
    expectParsed([
      [
        "/home/me/notes.pdf",
        { kind: "path", path: "/home/me/notes.pdf", text: "/home/me/notes.pdf" },
      ],
      ["/usr/bin is full", { kind: "unknown", command: "/usr/bin" }],
      ["//usr/bin", { kind: "text", text: "/usr/bin" }],
      ["/detach", { kind: "detach", which: "last" }],
      ["~/a\nb", { kind: "text", text: "~/a\nb" }],
    ]);
  });

  it("takes a draft without a leading / as the message, and // as one literal /", () => {
    expectParsed([
      ["hello /attach x", { kind: "text", text: "hello /attach x" }],
      [" /attach x", { kind: "text", text: " /attach x" }],
      ["//usr/bin is full", { kind: "text", text: "/usr/bin is full" }],
      ["//", { kind: "text", text: "/" }],
    ]);
  });

  it("reads /attach URL with the name from the URL's path and the type from its extension", () => {
    const url = "https://files.example.com/a/b/Q3%20plan.pdf";
    expect(parseComposerInput(`/attach ${url}`)).toEqual(
      attached(url, "Q3 plan.pdf", "application/pdf"),
    );
  });

  it("takes the rest of the line as the file name, and leaves out a type it does not know", () => {
    expectParsed([
      [
        "/ATTACH  http://x.test/f?id=1   the   notes.md ",
        attached("http://x.test/f?id=1", "the notes.md", "text/markdown"),
      ],
      ["/attach https://x.test/data.bin", attached("https://x.test/data.bin", "data.bin")],
    ]);
    // A name without an extension: the URL's says the type.
    expect(parseComposerInput("/attach https://x.test/shot.png screenshot")).toMatchObject({
      attachment: { filename: "screenshot", file_type: "image/png" },
    });
    // No path: the host names it.
    expect(parseComposerInput("/attach https://example.com/")).toMatchObject({
      attachment: { filename: "example.com" },
    });
  });

  it("refuses what is not an http or https URL, and /attach without one", () => {
    for (const url of ["javascript:alert(1)", "file:///etc/passwd", "ftp://x.test/a.txt"]) {
      const parsed = parseComposerInput(`/attach ${url}`);
      expect(parsed.kind, url).toBe("refused");
      expect(parsed).toMatchObject({ heading: "Not attached", reason: /only http and https/ });
    }
    expect(parseComposerInput("/attach")).toEqual({
      kind: "refused",
      heading: "Not attached",
      reason: "usage: /attach URL [file name], or /attach PATH",
    });
    expect(parseComposerInput(`/attach https://x.test/${"a".repeat(2100)}`)).toMatchObject({
      kind: "refused",
    });
  });

  it("reads /detach and /detach N", () => {
    expectParsed([
      ["/detach", { kind: "detach", which: "last" }],
      ["/detach 2", { kind: "detach", which: 2 }],
    ]);
    expect(parseComposerInput("/detach 0")).toMatchObject({ kind: "refused" });
    expect(parseComposerInput("/detach two")).toMatchObject({ kind: "refused" });
  });

  it("names an unknown command", () => {
    expectParsed([
      ["/shrug ok", { kind: "unknown", command: "/shrug" }],
      ["/", { kind: "unknown", command: "/" }],
      ["/usr/bin is full", { kind: "unknown", command: "/usr/bin" }],
    ]);
  });
});

describe("attachments", () => {
  const a = { file_url: "https://x.test/a.png", filename: "a.png", file_type: "image/png" };
  const b = { file_url: "https://x.test/b", filename: "b" };

  it("types by extension, in any case", () => {
    expect(fileTypeOf("A.JPG")).toBe("image/jpeg");
    expect(fileTypeOf("archive.tar.gz")).toBe("application/gzip");
    expect(fileTypeOf(".png")).toBeUndefined();
    expect(fileTypeOf("README")).toBeUndefined();
    expect(attachmentFrom("https://x.test/r.docx")).toMatchObject({
      attachment: { file_type: expect.stringContaining("wordprocessingml") },
    });
  });

  it("removes the last or the Nth, and says when there is none", () => {
    expect(detach([a, b], "last")).toEqual({ list: [a], removed: b });
    expect(detach([a, b], 1)).toEqual({ list: [b], removed: a });
    expect(detach([a, b], 3)).toEqual({ reason: "there is no attachment 3, only 2" });
    expect(detach([], "last")).toEqual({ reason: "the message has no attachments" });
  });

  it("shows as 📎 name · KIND, and names the files when nothing is typed", () => {
    expect(attachmentLabel(a)).toBe("📎 a.png · PNG");
    expect(attachmentLabel(b)).toBe("📎 b");
    expect(textForAttachments([a, b])).toBe("a.png, b");
  });

  it("are listed for the README", () => {
    expect(readmeCommandTable()).toContain("| `/attach URL [file name]` |");
  });
});
