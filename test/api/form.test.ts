import qs from "qs";
import { describe, expect, it } from "vitest";
import { encodeForm } from "../../src/api/form.ts";

describe("encodeForm", () => {
  it("sends plain fields as key=value, percent-encoding the value", () => {
    expect(encodeForm({ conversation_id: "conv_1", message: "héllo & bye = 1+1 ?" })).toBe(
      "conversation_id=conv_1&message=h%C3%A9llo%20%26%20bye%20%3D%201%2B1%20%3F",
    );
  });

  it("sends numbers as decimal text", () => {
    expect(encodeForm({ limit: 25, archived_at: 1700000000 })).toBe(
      "limit=25&archived_at=1700000000",
    );
  });

  it("sends booleans as true / false", () => {
    expect(encodeForm({ is_pinned: true, is_muted: false })).toBe("is_pinned=true&is_muted=false");
  });

  it("sends null as an empty value, which unsets the field", () => {
    expect(encodeForm({ archived_at: null })).toBe("archived_at=");
    expect(encodeForm({ pinned_message_id: null, is_pinned: true })).toBe(
      "pinned_message_id=&is_pinned=true",
    );
  });

  it("leaves undefined fields out", () => {
    expect(encodeForm({ a: undefined, b: "x", c: undefined })).toBe("b=x");
    expect(encodeForm({})).toBe("");
  });

  it("sends a list of values in bracket notation", () => {
    expect(encodeForm({ reactions: { thumbsup: ["alice", "bob"] } })).toBe(
      "reactions[thumbsup][]=alice&reactions[thumbsup][]=bob",
    );
  });

  it("sends an empty list as the name with an empty value", () => {
    expect(encodeForm({ reactions: { heart: [] } })).toBe("reactions[heart]=");
    expect(encodeForm({ attachments: [] })).toBe("attachments=");
  });

  it("mixes replaced and removed reactions in one body", () => {
    expect(encodeForm({ reactions: { thumbsup: ["alice"], heart: [] } })).toBe(
      "reactions[thumbsup][]=alice&reactions[heart]=",
    );
  });

  it("percent-encodes inside brackets, so a name like +1 survives form decoding", () => {
    const body = encodeForm({ reactions: { "+1": ["alice"] } });
    expect(body).toBe("reactions[%2B1][]=alice");
    expect(qs.parse(body)).toEqual({ reactions: { "+1": ["alice"] } });
  });

  it("sends a list of objects by index", () => {
    expect(
      encodeForm({
        attachments: [
          { file_url: "https://example.com/a b.png", filename: "a b.png", file_size: 12 },
          { file_url: "https://example.com/c.pdf", file_type: "application/pdf" },
        ],
      }),
    ).toBe(
      "attachments[0][file_url]=https%3A%2F%2Fexample.com%2Fa%20b.png" +
        "&attachments[0][filename]=a%20b.png&attachments[0][file_size]=12" +
        "&attachments[1][file_url]=https%3A%2F%2Fexample.com%2Fc.pdf" +
        "&attachments[1][file_type]=application%2Fpdf",
    );
  });

  it("leaves undefined fields of nested objects out", () => {
    expect(encodeForm({ attachments: [{ file_url: "u", filename: undefined }] })).toBe(
      "attachments[0][file_url]=u",
    );
  });

  it("round-trips through qs.parse, as the server reads it", () => {
    const params = {
      conversation_id: "conv_1",
      message: "hi",
      reactions: { thumbsup: ["alice", "bob"], tada: ["carol"] },
      attachments: [
        { file_url: "https://x/1", filename: "1.txt" },
        { file_url: "https://x/2", filename: "2.txt" },
      ],
      is_muted: true,
    };
    expect(qs.parse(encodeForm(params))).toEqual({
      ...params,
      is_muted: "true",
    });
  });

  it("refuses a number that is not finite", () => {
    expect(() => encodeForm({ limit: Number.NaN })).toThrow(TypeError);
  });
});
