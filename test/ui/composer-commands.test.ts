import { describe, expect, it } from "vitest";
import {
  attachmentFrom,
  attachmentLabel,
  detach,
  fileTypeOf,
  parseComposerInput,
  readmeCommandTable,
  textForAttachments,
} from "../../src/ui/composer/commands.ts";

describe("parseComposerInput", () => {
  it("takes /attach without a scheme as a file on disk, quoted or escaped as pasted", () => {
    expect(parseComposerInput("/attach ~/notes.pdf")).toEqual({
      kind: "upload",
      path: "~/notes.pdf",
    });
    expect(parseComposerInput("/attach notes")).toEqual({ kind: "upload", path: "notes" });
    expect(parseComposerInput("/attach ~/my notes.pdf")).toEqual({
      kind: "upload",
      path: "~/my notes.pdf",
    });
    expect(parseComposerInput("/attach '/tmp/a b.pdf'")).toEqual({
      kind: "upload",
      path: "/tmp/a b.pdf",
    });
    expect(parseComposerInput("/attach /tmp/a\\ b.pdf")).toEqual({
      kind: "upload",
      path: "/tmp/a b.pdf",
    });
  });

  it("offers a path alone as a file, and leaves commands and sentences alone", () => {
    expect(parseComposerInput("/home/me/notes.pdf")).toEqual({
      kind: "path",
      path: "/home/me/notes.pdf",
      text: "/home/me/notes.pdf",
    });
    expect(parseComposerInput("'/home/me/my notes.pdf' ")).toMatchObject({
      kind: "path",
      path: "/home/me/my notes.pdf",
    });
    expect(parseComposerInput("~/x.png")).toMatchObject({ kind: "path", path: "~/x.png" });
    expect(parseComposerInput("/usr/bin is full")).toEqual({
      kind: "unknown",
      command: "/usr/bin",
    });
    expect(parseComposerInput("//usr/bin")).toEqual({ kind: "text", text: "/usr/bin" });
    expect(parseComposerInput("/detach")).toEqual({ kind: "detach", which: "last" });
    expect(parseComposerInput("~/a\nb")).toEqual({ kind: "text", text: "~/a\nb" });
  });

  it("takes a draft without a leading / as the message, and // as one literal /", () => {
    expect(parseComposerInput("hello /attach x")).toEqual({
      kind: "text",
      text: "hello /attach x",
    });
    expect(parseComposerInput(" /attach x")).toEqual({ kind: "text", text: " /attach x" });
    expect(parseComposerInput("//usr/bin is full")).toEqual({
      kind: "text",
      text: "/usr/bin is full",
    });
    expect(parseComposerInput("//")).toEqual({ kind: "text", text: "/" });
  });

  it("reads /attach URL with the name from the URL's path and the type from its extension", () => {
    expect(parseComposerInput("/attach https://files.example.com/a/b/Q3%20plan.pdf")).toEqual({
      kind: "attach",
      attachment: {
        file_url: "https://files.example.com/a/b/Q3%20plan.pdf",
        filename: "Q3 plan.pdf",
        file_type: "application/pdf",
      },
    });
  });

  it("takes the rest of the line as the file name, and leaves out a type it does not know", () => {
    expect(parseComposerInput("/ATTACH  http://x.test/f?id=1   the   notes.md ")).toEqual({
      kind: "attach",
      attachment: {
        file_url: "http://x.test/f?id=1",
        filename: "the notes.md",
        file_type: "text/markdown",
      },
    });
    expect(parseComposerInput("/attach https://x.test/data.bin")).toEqual({
      kind: "attach",
      attachment: { file_url: "https://x.test/data.bin", filename: "data.bin" },
    });
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
    expect(parseComposerInput("/detach")).toEqual({ kind: "detach", which: "last" });
    expect(parseComposerInput("/detach 2")).toEqual({ kind: "detach", which: 2 });
    expect(parseComposerInput("/detach 0")).toMatchObject({ kind: "refused" });
    expect(parseComposerInput("/detach two")).toMatchObject({ kind: "refused" });
  });

  it("names an unknown command", () => {
    expect(parseComposerInput("/shrug ok")).toEqual({ kind: "unknown", command: "/shrug" });
    expect(parseComposerInput("/")).toEqual({ kind: "unknown", command: "/" });
    expect(parseComposerInput("/usr/bin is full")).toEqual({
      kind: "unknown",
      command: "/usr/bin",
    });
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
