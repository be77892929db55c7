import { describe, expect, it } from "vitest";
import {
  Attachment,
  Contact,
  Conversation,
  Deleted,
  ErrorResponse,
  Message,
  Page,
  parseMessage,
  toUnixSeconds,
} from "../../src/api/schema.ts";
import { conversation as conversationJson, UNTOUCHED } from "./foreign-server.ts";

const contact = {
  id: "ct_alice",
  username: "alice",
  phone_number: "+15550100",
  avatar_url: "https://example.com/a.png",
  last_active_at: 1_700_000_000,
  created_at: 1_600_000_000,
};

const message = {
  id: "msg_1",
  conversation_id: "conv_1",
  contact,
  message: "hello",
  reactions: [{ thumbsup: ["alice", "bob"] }, { heart: ["carol"] }],
  attachments: [],
  read_at: null,
  created_at: 1_700_000_100,
  updated_at: null,
};

const conversation = conversationJson("conv_1");

// First in the file: zod generates a parser the first time each object schema parses.
describe("parsing", () => {
  it("generates no code (src/zod.ts)", () => {
    const made: unknown[][] = [];
    const original = globalThis.Function;
    globalThis.Function = new Proxy(original, {
      construct(target, args) {
        made.push(args);
        return Reflect.construct(target, args);
      },
    });
    try {
      Page(Message).parse({ has_more: false, data: [message] });
      Conversation.parse(conversation);
    } finally {
      globalThis.Function = original;
    }
    expect(made).toEqual([]);
  });
});

describe("timestamps", () => {
  it("keeps seconds and turns milliseconds (above 10^11) into seconds", () => {
    expect(toUnixSeconds(1_700_000_000)).toBe(1_700_000_000);
    expect(toUnixSeconds(1_700_000_000_999)).toBe(1_700_000_000);
    expect(toUnixSeconds(99_999_999_999)).toBe(99_999_999_999);
  });

  it("reads millisecond timestamps of a message and of its contact as seconds", () => {
    const sender = { ...contact, last_active_at: 1_700_000_000_000, created_at: 1_600_000_000_000 };
    const parsed = Message.parse({
      ...message,
      created_at: 1_700_000_100_123,
      read_at: 1_700_000_200_000,
      updated_at: 1_700_000_300_500,
      contact: sender,
    });
    expect(parsed.created_at).toBe(1_700_000_100);
    expect(parsed.read_at).toBe(1_700_000_200);
    expect(parsed.updated_at).toBe(1_700_000_300);
    expect(parsed.contact.last_active_at).toBe(1_700_000_000);
    expect(parsed.contact.created_at).toBe(1_600_000_000);
  });

  it("reads millisecond timestamps of a conversation as seconds", () => {
    const parsed = Conversation.parse({
      ...conversation,
      created_at: 1_700_000_000_000,
      last_active_at: 1_700_000_500_000,
      last_opened_at: 1_700_000_400_000,
      archived_at: 1_700_000_600_000,
    });
    expect(parsed).toMatchObject({
      created_at: 1_700_000_000,
      last_active_at: 1_700_000_500,
      last_opened_at: 1_700_000_400,
      archived_at: 1_700_000_600,
    });
  });

  it("reads numeric strings and fractional seconds", () => {
    const parsed = Conversation.parse({
      ...conversation,
      created_at: "1700000000",
      last_active_at: 1700000000.7,
    });
    expect(parsed.created_at).toBe(1_700_000_000);
    expect(parsed.last_active_at).toBe(1_700_000_000);
  });

  it("refuses a timestamp that is not a number", () => {
    expect(Message.safeParse({ ...message, created_at: "yesterday" }).success).toBe(false);
  });
});

describe("ids", () => {
  it("turns numeric ids into strings, everywhere", () => {
    const parsed = Message.parse({
      ...message,
      id: 42,
      conversation_id: 7,
      contact: { ...contact, id: 3 },
    });
    expect(parsed.id).toBe("42");
    expect(parsed.conversation_id).toBe("7");
    expect(parsed.contact.id).toBe("3");
    const conv = Conversation.parse({
      ...conversation,
      id: 1,
      contact_id: 2,
      pinned_message_id: 9,
    });
    expect(conv).toMatchObject({ id: "1", contact_id: "2", pinned_message_id: "9" });
    expect(Deleted.parse({ id: 5, deleted: true })).toEqual({ id: "5", deleted: true });
  });

  it("keeps string ids exactly as sent", () => {
    expect(Message.parse({ ...message, id: "msg_ÄÖ/ü 1" }).id).toBe("msg_ÄÖ/ü 1");
  });
});

describe("unknown and missing fields", () => {
  it("ignores unknown fields", () => {
    const parsed = Message.parse({
      ...message,
      object: "message",
      livemode: false,
      contact: { ...contact, email: "a@b" },
    });
    expect(parsed).not.toHaveProperty("object");
    expect(parsed.contact).not.toHaveProperty("email");
    expect(Conversation.parse({ ...conversation, metadata: { a: 1 } })).not.toHaveProperty(
      "metadata",
    );
    expect(
      Page(Message).parse({
        object: "list",
        url: "/v1/messages",
        has_more: false,
        data: [message],
      }),
    ).toEqual({ has_more: false, data: [Message.parse(message)] });
  });

  it("fills missing optional fields of a message", () => {
    const parsed = Message.parse({
      id: "m",
      conversation_id: "c",
      contact: { id: "ct" },
      created_at: 1,
    });
    expect(parsed).toEqual({
      id: "m",
      conversation_id: "c",
      contact: {
        id: "ct",
        username: "",
        phone_number: null,
        avatar_url: null,
        last_active_at: null,
        created_at: null,
      },
      message: "",
      reactions: [],
      attachments: [],
      read_at: null,
      created_at: 1,
      updated_at: null,
    });
  });

  it("fills missing optional fields of a conversation", () => {
    expect(Conversation.parse({ id: "c" })).toEqual({
      id: "c",
      contact_id: null,
      created_at: 0,
      ...UNTOUCHED,
    });
  });

  it("treats a missing has_more as false", () => {
    expect(Page(Conversation).parse({ data: [] })).toEqual({ has_more: false, data: [] });
  });

  it("still requires what cannot be guessed: ids and the sender", () => {
    expect(Message.safeParse({ ...message, id: undefined }).success).toBe(false);
    expect(Message.safeParse({ ...message, contact: undefined }).success).toBe(false);
    expect(Conversation.safeParse({ ...conversation, id: null }).success).toBe(false);
    expect(Page(Message).safeParse({ has_more: true }).success).toBe(false);
  });

  it("accepts null for nullable strings of a contact", () => {
    expect(
      Contact.parse({ id: "x", username: null, phone_number: null, avatar_url: null }),
    ).toMatchObject({
      username: "",
      phone_number: null,
      avatar_url: null,
    });
  });
});

describe("reactions", () => {
  it("keeps the contract's shape and order", () => {
    expect(Message.parse(message).reactions).toEqual([
      { thumbsup: ["alice", "bob"] },
      { heart: ["carol"] },
    ]);
  });

  it("reads null or a missing list as none", () => {
    expect(Message.parse({ ...message, reactions: null }).reactions).toEqual([]);
    expect(Message.parse({ ...message, reactions: undefined }).reactions).toEqual([]);
  });

  it("splits an object with several names into one per name, also a bare map", () => {
    expect(Message.parse({ ...message, reactions: [{ a: ["x"], b: ["y"] }] }).reactions).toEqual([
      { a: ["x"] },
      { b: ["y"] },
    ]);
    expect(
      Message.parse({ ...message, reactions: { joy: ["x"], tada: ["y", "z"] } }).reactions,
    ).toEqual([{ joy: ["x"] }, { tada: ["y", "z"] }]);
  });

  it("drops junk: non-objects, names without users, users that are not strings", () => {
    expect(
      Message.parse({
        ...message,
        reactions: [
          null,
          "thumbsup",
          3,
          [],
          { heart: [] },
          { joy: null },
          { tada: ["bob", 7, null] },
        ],
      }).reactions,
    ).toEqual([{ tada: ["bob"] }]);
  });
});

describe("attachments", () => {
  it("keeps the template's full attachment", () => {
    const full = {
      id: "att_1",
      message_id: "msg_1",
      filename: "a.png",
      file_url: "https://example.com/a.png",
      file_type: "image/png",
      file_size: 1234,
      created_at: 1_700_000_000,
    };
    expect(Message.parse({ ...message, attachments: [full] }).attachments).toEqual([full]);
  });

  it("keeps an attachment that has only a url, or only a filename", () => {
    const parsed = Message.parse({
      ...message,
      attachments: [{ url: "https://example.com/x" }, { filename: "notes.txt" }],
    });
    expect(parsed.attachments).toEqual([
      { url: "https://example.com/x", created_at: null },
      { filename: "notes.txt", created_at: null },
    ]);
  });

  it("drops what has nothing to show", () => {
    const parsed = Message.parse({
      ...message,
      attachments: [
        null,
        5,
        "a.png",
        [],
        {},
        { id: "att_2", file_type: "image/png" },
        { file_url: "" },
      ],
    });
    expect(parsed.attachments).toEqual([]);
  });

  it("reads null attachments as none", () => {
    expect(Message.parse({ ...message, attachments: null }).attachments).toEqual([]);
  });

  it("keeps an attachment whose other fields are of the wrong type, without them", () => {
    const parsed = Attachment.parse({
      file_url: "https://example.com/a",
      filename: 12,
      file_size: "2048",
      file_type: { mime: "x" },
      created_at: "tuesday",
      id: 9,
    });
    expect(parsed).toEqual({
      id: "9",
      file_url: "https://example.com/a",
      filename: null,
      file_size: 2048,
      file_type: null,
      created_at: null,
    });
    expect(Attachment.parse({ url: "u", file_size: "big" }).file_size).toBeNull();
    expect(Attachment.parse({ url: "u", file_size: -1 }).file_size).toBeNull();
  });

  it("reads a millisecond created_at of an attachment as seconds", () => {
    expect(Attachment.parse({ file_url: "u", created_at: 1_700_000_000_000 }).created_at).toBe(
      1_700_000_000,
    );
  });
});

describe("error bodies", () => {
  it("reads the contract's flat body", () => {
    expect(
      ErrorResponse.parse({
        type: "invalid_request",
        code: "parameter_invalid",
        message: "Bad limit.",
        param: "limit",
      }),
    ).toEqual({
      type: "invalid_request",
      code: "parameter_invalid",
      message: "Bad limit.",
      param: "limit",
    });
  });

  it("reads Stripe's nested body", () => {
    expect(
      ErrorResponse.parse({
        error: {
          type: "invalid_request_error",
          code: "resource_missing",
          message: "No such message.",
          param: "id",
          doc_url: "x",
        },
      }),
    ).toEqual({
      type: "invalid_request_error",
      code: "resource_missing",
      message: "No such message.",
      param: "id",
    });
  });

  it("ignores null and other wrong types in the fields instead of losing the rest", () => {
    expect(
      ErrorResponse.parse({
        error: { type: "api_error", message: "Boom.", param: null, code: null },
      }),
    ).toEqual({
      type: "api_error",
      message: "Boom.",
    });
    expect(ErrorResponse.parse({ code: 42, message: "x", param: ["a"] })).toEqual({
      code: "42",
      message: "x",
    });
  });

  it("reads { error: '<message>' } and RFC 9457 problem details", () => {
    expect(ErrorResponse.parse({ error: "Not found" })).toEqual({ message: "Not found" });
    expect(
      ErrorResponse.parse({
        statusCode: 400,
        error: "Bad Request",
        message: "limit must be a number",
      }),
    ).toEqual({
      message: "limit must be a number",
    });
    expect(
      ErrorResponse.parse({
        type: "about:blank",
        title: "Bad Gateway",
        detail: "Upstream is down.",
      }),
    ).toMatchObject({
      message: "Upstream is down.",
    });
    expect(ErrorResponse.parse({ title: "Bad Gateway" })).toEqual({ message: "Bad Gateway" });
  });

  it("reads an empty object as an error with nothing said, and refuses what is not an object", () => {
    expect(ErrorResponse.parse({})).toEqual({});
    expect(ErrorResponse.safeParse("oops").success).toBe(false);
    expect(ErrorResponse.safeParse(null).success).toBe(false);
  });
});

describe("parseMessage", () => {
  // Every combination of these, field by field, against zod's Message: the plain shape is
  // read without zod, and must be read exactly as zod reads it; any other goes through zod.
  const choices: Record<string, unknown[]> = {
    id: ["msg_9", 9, null, undefined],
    conversation_id: ["conv_9", 7],
    message: ["hi", "", null, undefined, 5],
    reactions: [[], null, undefined, [{ ok: ["bob"] }], { ok: ["bob"] }],
    attachments: [[], null, undefined, [{ file_url: "https://x.test/a" }], "x"],
    read_at: [null, undefined, 1_700_000_000, 1_700_000_000_123, "1700000000", "soon"],
    created_at: [1_700_000_000, 1_700_000_000.7, null, undefined, 1_700_000_000_999],
    updated_at: [null, 1_700_000_001, "x"],
  };
  const contactChoices: Record<string, unknown[]> = {
    id: ["ct_bob", 3, undefined],
    username: ["bob", null, undefined, 4],
    phone_number: [null, "+1555", undefined, false],
    avatar_url: [null, undefined, "https://a.test/b.png"],
    last_active_at: [null, 1_700_000_000, 1_700_000_000_555, undefined],
    created_at: [undefined, 1_600_000_000],
  };
  /** Each field's choices in turn, the others at their first (the plain shape). */
  function* variants(fields: Record<string, unknown[]>): Generator<Record<string, unknown>> {
    const plain = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]]));
    for (const [key, values] of Object.entries(fields)) {
      for (const value of values) {
        const item = { ...plain, [key]: value };
        if (value === undefined) delete item[key];
        yield item;
      }
    }
  }
  const inputs: unknown[] = [null, [], "message", { ...message }, { ...message, extra: 1 }];
  for (const m of variants(choices)) inputs.push({ ...m, contact: { ...contact } });
  for (const c of variants(contactChoices)) inputs.push({ ...message, reactions: [], contact: c });
  inputs.push({ ...message, reactions: [], contact: "bob" });

  it("reads every shape as zod's Message does", () => {
    let plain = 0;
    for (const input of inputs) {
      const zod = Message.safeParse(input);
      expect(parseMessage(input), JSON.stringify(input)).toStrictEqual(
        zod.success ? zod.data : undefined,
      );
      if (zod.success && zod.data.reactions.length === 0 && zod.data.attachments.length === 0)
        plain++;
    }
    // The plain shape is a good part of them: the fast path is what the check ran through.
    expect(plain).toBeGreaterThan(20);
  });
});
