// A message's links as the pane lays them out: pieces of one link on every line it
// reaches, attachments with name, kind and size, and `o`/`Y`'s list of a message's links.
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schema.ts";
import { type Line, layoutItem } from "../../src/ui/messages/message-lines.ts";
import { messageLinks } from "../../src/ui/model/message-links.ts";

function message(
  text: string,
  attachments: Partial<Message["attachments"][number]>[] = [],
): Message {
  return {
    id: "msg_1",
    conversation_id: "conv_1",
    contact: { id: "ct_bob", username: "bob" },
    message: text,
    reactions: [],
    attachments: attachments.map((a) => ({
      filename: null,
      file_url: null,
      url: null,
      file_type: null,
      file_size: null,
      created_at: null,
      ...a,
    })),
    read_at: null,
    created_at: 1_700_000_000,
    updated_at: null,
  } as unknown as Message;
}

const lay = (m: Message, width = 40) =>
  layoutItem({ kind: "message", key: m.id, message: m }, undefined, {
    width,
    me: "alice",
    now: 1_700_000_000,
  });
const text = (line: Line) => line.map((s) => s.text).join("");

describe("links in the laid-out lines", () => {
  it("gives every piece of a wrapped URL the same link", () => {
    const url = "https://example.com/a-rather-long-path/that-wraps/over-lines";
    const lines = lay(message(`see ${url} ok`), 30);
    const pieces = lines.flatMap((l) => l.filter((s) => s.link));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((s) => s.text).join("")).toBe(url);
    expect(new Set(pieces.map((s) => `${s.link!.id} ${s.link!.url}`)).size).toBe(1);
    // The text reads as before: indented, wrapped at the width.
    for (const line of lines) expect(text(line).length).toBeLessThanOrEqual(30);
  });

  it("shows an attachment's name, kind, size and host, linked to its file", () => {
    const lines = lay(
      message("", [
        {
          filename: "budget-q3.pdf",
          file_url: "https://files.example.com/budget-q3.pdf",
          file_type: "application/pdf",
          file_size: 284_113,
        },
        { filename: "evil.pdf", file_url: "javascript:alert(1)" },
        { url: "https://files.example.com/old-style.png" },
      ]),
      80,
    );
    const attachments = lines.filter((l) => text(l).includes("📎"));
    expect(attachments.map(text)).toEqual([
      "  📎 budget-q3.pdf · PDF · 277 KB · files.example.com",
      "  📎 evil.pdf · PDF",
      "  📎 https://files.example.com/old-style.png · PNG · files.example.com",
    ]);
    expect(attachments.map((l) => l.find((s) => s.link)?.link?.url)).toEqual([
      "https://files.example.com/budget-q3.pdf",
      undefined,
      "https://files.example.com/old-style.png",
    ]);
    // Ids differ between the links of one message.
    const ids = attachments.flatMap((l) => l.flatMap((s) => (s.link ? [s.link.id] : [])));
    expect(new Set(ids).size).toBe(2);
  });

  it("lists a message's links for o and Y: its text's, then its attachments'", () => {
    expect(
      messageLinks(
        message("a https://a.example/x and javascript:bad()", [
          {
            filename: "c.png",
            file_url: "https://files.example.com/c.png",
            file_type: "image/png",
          },
          { filename: "d.png", file_url: "javascript:alert(1)" },
        ]),
      ),
    ).toEqual([
      { label: "https://a.example/x", url: "https://a.example/x" },
      { label: "📎 c.png · PNG · files.example.com", url: "https://files.example.com/c.png" },
    ]);
  });
});
