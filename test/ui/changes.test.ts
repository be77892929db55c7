import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.ts";
import { isTransient } from "../../src/api/retry.ts";
import type { Conversation, Message } from "../../src/api/schema.ts";
import {
  alreadyDone,
  changedConversation,
  changedMessages,
  isPending,
  type QueuedChange,
  waitingCount,
} from "../../src/ui/queries/changes.ts";
import { createOutbox } from "../../src/ui/queries/outbox.ts";

const message = (id: string, text: string): Message => ({
  id,
  conversation_id: "c1",
  contact: {
    id: "ct_bob",
    username: "bob",
    phone_number: null,
    avatar_url: null,
    last_active_at: null,
    created_at: null,
  },
  message: text,
  reactions: [],
  attachments: [],
  created_at: 1_700_000_000,
  updated_at: null,
  read_at: null,
});

const conversation = {
  id: "c1",
  is_pinned: false,
  is_muted: false,
  archived_at: null,
} as Conversation;

function queued(
  change: QueuedChange["change"],
  status: QueuedChange["status"] = "queued",
): QueuedChange {
  return {
    id: Math.random().toString(36),
    change,
    status,
    failure: "",
    queuedAt: 1_700_000_100_000,
  };
}

describe("changes on their way", () => {
  it("show on the messages they touch, in order, and mark them saving", () => {
    const messages = [message("m1", "one"), message("m2", "two"), message("m3", "three")];
    const shown = changedMessages(messages, [
      queued({ kind: "edit", conversationId: "c1", messageId: "m1", text: "one, edited" }),
      queued({
        kind: "react",
        conversationId: "c1",
        messageId: "m1",
        name: "heart",
        users: ["alice"],
      }),
      queued({ kind: "deleteMessage", conversationId: "c1", messageId: "m2" }),
    ]);
    expect(shown.map((m) => m.message)).toEqual(["one, edited", "three"]);
    expect(shown[0]!.reactions).toEqual([{ heart: ["alice"] }]);
    expect(shown[0]!.updated_at).toBe(1_700_000_100);
    expect(isPending(shown[0]!)).toBe(true);
    expect(isPending(shown[1]!)).toBe(false);
    expect(shown[1]).toBe(messages[2]);
  });

  it("show attachments added to a message after the ones it has", () => {
    const had = {
      ...message("m1", "one"),
      attachments: [{ file_url: "https://x.test/a", filename: "a" }],
    } as Message;
    const [shown] = changedMessages(
      [had],
      [
        queued({
          kind: "attach",
          conversationId: "c1",
          messageId: "m1",
          attachments: [
            { file_url: "https://x.test/b.png", filename: "b.png", file_type: "image/png" },
          ],
        }),
      ],
    );
    expect(shown!.attachments).toMatchObject([
      { file_url: "https://x.test/a", filename: "a" },
      { file_url: "https://x.test/b.png", filename: "b.png", file_type: "image/png" },
    ]);
    expect(isPending(shown!)).toBe(true);
  });

  it("refused ones show no more", () => {
    const messages = [message("m1", "one")];
    const shown = changedMessages(messages, [
      queued({ kind: "edit", conversationId: "c1", messageId: "m1", text: "x" }, "failed"),
    ]);
    expect(shown[0]).toBe(messages[0]);
  });

  it("show on a conversation as its final state", () => {
    const changes = [
      queued({ kind: "updateConversation", conversationId: "c1", params: { is_muted: true } }),
      queued({
        kind: "updateConversation",
        conversationId: "c1",
        params: { is_muted: false, is_pinned: true },
      }),
      queued({ kind: "updateConversation", conversationId: "c2", params: { is_pinned: false } }),
    ];
    expect(changedConversation(conversation, changes)).toMatchObject({
      is_muted: false,
      is_pinned: true,
    });
    expect(
      changedConversation(conversation, [
        queued({ kind: "deleteConversation", conversationId: "c1" }),
      ]),
    ).toBeNull();
  });

  it("count as waiting unless the server refused them", () => {
    const send = { kind: "send", conversationId: "c1", text: "hi", idempotencyKey: "k" } as const;
    expect(waitingCount([queued(send), queued(send, "sending"), queued(send, "failed")])).toBe(2);
  });

  it("are tried again after no answer, a server failure, a rate limit or a rejected token, never after a refusal", () => {
    const error = (status: number) =>
      new ApiError({ status, type: "api_error", code: "x", message: "x" });
    for (const status of [0, 401, 408, 429, 500, 503])
      expect(isTransient(error(status)), String(status)).toBe(true);
    for (const status of [400, 403, 404, 409, 413])
      expect(isTransient(error(status)), String(status)).toBe(false);
    const del = { kind: "deleteMessage", conversationId: "c1", messageId: "m1" } as const;
    expect(alreadyDone(del, error(404))).toBe(true);
    expect(
      alreadyDone({ kind: "edit", conversationId: "c1", messageId: "m1", text: "" }, error(404)),
    ).toBe(false);
  });
});

describe("the outbox", () => {
  it("keeps changes in the order they were made and sends again what was on its way at a stop", () => {
    const outbox = createOutbox([
      queued({ kind: "send", conversationId: "c1", text: "a", idempotencyKey: "k1" }, "sending"),
      queued({ kind: "send", conversationId: "c1", text: "b", idempotencyKey: "k2" }, "failed"),
    ]);
    outbox.add(
      { kind: "send", conversationId: "c1", text: "c", idempotencyKey: "k3" },
      { failure: "" },
    );
    const all = outbox.changes.get();
    expect(all.map((c) => c.status)).toEqual(["queued", "failed", "queued"]);
    expect(all.map((c) => (c.change.kind === "send" ? c.change.text : ""))).toEqual([
      "a",
      "b",
      "c",
    ]);
    outbox.retry(all[1]!.id);
    expect(outbox.changes.get()[1]!.status).toBe("queued");
    expect(outbox.retries.get()).toBe(1);
    outbox.remove(all[0]!.id);
    expect(outbox.changes.get()).toHaveLength(2);
  });
});
