// The client against the real embedded server, over real HTTP: every method and parameter,
// and every error of the contract as an ApiError.
import { afterEach, describe, expect, it } from "vitest";
import { type Api, type ApiOptions, createApi } from "../../src/api/client.ts";
import type { Conversation, Message, Page } from "../../src/api/schema.ts";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/index.ts";
import { freshDb } from "../server/stores.ts";
import { failure } from "./failure.ts";
import { UNTOUCHED } from "./foreign-server.ts";

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

type Users = Record<
  "alice" | "bob" | "carol" | "dave" | "erin" | "frank",
  { id: string; token: string }
>;

/** A fresh server; with `demo` (the default here) seeded with the demo conversations. */
async function start(options: StartOptions = {}) {
  const db = options.db ?? (await freshDb());
  const server = await startServer({ port: 0, demo: true, demoReplies: false, ...options, db });
  running.push(server);
  const users = Object.fromEntries(
    server.demoUsers.map((u) => [u.username, { id: u.contactId, token: u.token }]),
  ) as Users;
  const as = (user: keyof Users, options: Partial<ApiOptions> = {}): Api =>
    createApi({ baseUrl: server.url, token: users[user].token, retryDelayMs: 5, ...options });
  return { server, users, as, alice: as("alice"), bob: as("bob"), carol: as("carol") };
}

/** Users only, no demo conversations: a clean slate. */
const startEmpty = (options: StartOptions = {}) =>
  start({ demo: true, demoConversations: false, ...options });

/** An empty demo server (no conversations yet), and alice's new conversation with bob. */
async function emptyWithBob() {
  const started = await startEmpty();
  const conv = await started.alice.conversations.create({ contact_id: started.users.bob.id });
  return { ...started, conv };
}

async function collect<T>(pages: AsyncIterable<Page<T>>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const page of pages) out.push(page.data);
  return out;
}

/** Sends `n` messages "m1".."mn" (m1 oldest); returns them oldest first. */
async function sendMany(api: Api, conversationId: string, n: number): Promise<Message[]> {
  const sent: Message[] = [];
  for (let i = 1; i <= n; i++) {
    sent.push(await api.messages.send({ conversation_id: conversationId, message: `m${i}` }));
  }
  return sent;
}

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe("messages", () => {
  it("sends a message with attachments and gets it back", async () => {
    const { alice, bob, users, conv } = await emptyWithBob();
    const sent = await alice.messages.send({
      conversation_id: conv.id,
      message: "  Here are the files ✨  ",
      attachments: [
        {
          file_url: "https://files.example.com/plan.pdf",
          filename: "plan.pdf",
          file_type: "application/pdf",
          file_size: 12345,
        },
        { file_url: "https://files.example.com/photos/beach%20day.jpg" },
      ],
    });
    expect(sent.id).toMatch(/^msg_/);
    expect(sent).toMatchObject({
      conversation_id: conv.id,
      message: "Here are the files ✨",
      contact: { id: users.alice.id, username: "alice" },
      reactions: [],
      read_at: null,
      updated_at: null,
    });
    expect(sent.created_at).toBeGreaterThan(1_600_000_000);
    expect(sent.attachments).toHaveLength(2);
    expect(sent.attachments[0]).toMatchObject({
      message_id: sent.id,
      filename: "plan.pdf",
      file_url: "https://files.example.com/plan.pdf",
      file_type: "application/pdf",
      file_size: 12345,
    });
    expect(sent.attachments[0]?.id).toBeTruthy();
    expect(sent.attachments[1]).toMatchObject({
      file_url: "https://files.example.com/photos/beach%20day.jpg",
      filename: "beach day.jpg",
    });

    expect(await alice.messages.get(sent.id)).toEqual(sent);
    // bob sees it too, from the other side.
    expect((await bob.messages.get(sent.id)).message).toBe("Here are the files ✨");
  });

  it("lists newest first, limited, both ways through the pages", async () => {
    const { alice, conv } = await emptyWithBob();
    const sent = await sendMany(alice, conv.id, 7);
    const newestFirst = ids(sent).reverse();

    const threeAt = (cursor: { starting_after?: string; ending_before?: string }) =>
      alice.messages.list({ conversation_id: conv.id, limit: 3, ...cursor });
    const expectPage = (page: Page<Message>, expected: string[], hasMore: boolean) => {
      expect(ids(page.data)).toEqual(expected);
      expect(page.has_more).toBe(hasMore);
    };

    const first = await threeAt({});
    expectPage(first, newestFirst.slice(0, 3), true);
    const second = await threeAt({ starting_after: first.data.at(-1)!.id });
    expectPage(second, newestFirst.slice(3, 6), true);
    const last = await threeAt({ starting_after: second.data.at(-1)!.id });
    expectPage(last, newestFirst.slice(6), false);
    // Back towards the newest with ending_before.
    const back = await threeAt({ ending_before: last.data[0]!.id });
    expectPage(back, newestFirst.slice(3, 6), true);
    const top = await threeAt({ ending_before: back.data[0]!.id });
    expectPage(top, newestFirst.slice(0, 3), false);
  });

  it("lists at most ten by default, and across conversations without conversation_id", async () => {
    const { alice, bob, users, conv: withBob } = await emptyWithBob();
    const withCarol = await alice.conversations.create({ contact_id: users.carol.id });
    await sendMany(alice, withBob.id, 11);
    const toCarol = await alice.messages.send({
      conversation_id: withCarol.id,
      message: "hi carol",
    });

    const page = await alice.messages.list({ conversation_id: withBob.id });
    expect(page.data).toHaveLength(10);
    expect(page.has_more).toBe(true);

    const all = await alice.messages.list({ limit: 100 });
    expect(all.data).toHaveLength(12);
    expect(all.data[0]?.id).toBe(toCarol.id);
    expect(new Set(all.data.map((m) => m.conversation_id))).toEqual(
      new Set([withBob.id, withCarol.id]),
    );
    // bob is not in the conversation with carol.
    expect((await bob.messages.list({ limit: 100 })).data).toHaveLength(11);
  });

  it("walks every page with the iterator, forwards and backwards", async () => {
    const { alice, conv } = await emptyWithBob();
    const newestFirst = ids(await sendMany(alice, conv.id, 7)).reverse();

    const forwards = await collect(alice.messages.pages({ conversation_id: conv.id, limit: 3 }));
    expect(forwards.map(ids)).toEqual([
      newestFirst.slice(0, 3),
      newestFirst.slice(3, 6),
      newestFirst.slice(6),
    ]);

    const backwards = await collect(
      alice.messages.pages({ conversation_id: conv.id, limit: 2, ending_before: newestFirst[6]! }),
    );
    expect(backwards.map(ids)).toEqual([
      newestFirst.slice(4, 6),
      newestFirst.slice(2, 4),
      newestFirst.slice(0, 2),
    ]);

    // Stopping early fetches no more pages than were read.
    for await (const page of alice.messages.pages({ conversation_id: conv.id, limit: 1 })) {
      expect(ids(page.data)).toEqual([newestFirst[0]]);
      break;
    }
  });

  it("pages through the demo team channel's 600+ messages", async () => {
    const { alice } = await start();
    const team = (await alice.conversations.list({ group_id: "grp_team" })).data[0]!;
    const pages = await collect(alice.messages.pages({ conversation_id: team.id, limit: 100 }));
    const all = pages.flat();
    expect(pages.length).toBeGreaterThanOrEqual(7);
    expect(all.length).toBeGreaterThan(600);
    expect(new Set(ids(all)).size).toBe(all.length);
    const times = all.map((m) => m.created_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("an idempotent send retried with the same key returns the same message", async () => {
    const { alice, conv } = await emptyWithBob();
    const params = { conversation_id: conv.id, message: "only once" };
    const first = await alice.messages.send(params, { idempotencyKey: "draft-1" });
    const again = await alice.messages.send(params, { idempotencyKey: "draft-1" });
    expect(again).toEqual(first);
    const other = await alice.messages.send(params, { idempotencyKey: "draft-2" });
    expect(other.id).not.toBe(first.id);
    const listed = await alice.messages.list({ conversation_id: conv.id });
    expect(ids(listed.data)).toEqual([other.id, first.id]);
    // Without a key every send is its own message.
    await alice.messages.send(params);
    await alice.messages.send(params);
    expect((await alice.messages.list({ conversation_id: conv.id })).data).toHaveLength(4);
  });

  it("retries a send after a 500 without sending the message twice", async () => {
    let failNext = false;
    const { alice, users } = await startEmpty({
      faults: ({ method, path }) => {
        if (failNext && method === "POST" && path === "/v1/messages") {
          failNext = false;
          throw new Error("injected fault");
        }
      },
    });
    const conv = await alice.conversations.create({ contact_id: users.bob.id });
    failNext = true;
    const sent = await alice.messages.send({
      conversation_id: conv.id,
      message: "through a hiccup",
    });
    expect(failNext).toBe(false);
    expect(ids((await alice.messages.list({ conversation_id: conv.id })).data)).toEqual([sent.id]);
  });

  it("updates text, adds and removes reactions, adds attachments", async () => {
    const { alice, bob, conv } = await emptyWithBob();
    const sent = await alice.messages.send({
      conversation_id: conv.id,
      message: "first draft",
      attachments: [{ file_url: "https://files.example.com/a.png", filename: "a.png" }],
    });

    const edited = await alice.messages.update(sent.id, { message: "second draft" });
    expect(edited.message).toBe("second draft");
    expect(edited.updated_at).not.toBeNull();

    // A member reacts only as themselves: alice's name in bob's list adds nobody.
    const reacted = await bob.messages.update(sent.id, {
      reactions: { thumbsup: ["alice", "bob"], "+1": ["bob"] },
    });
    expect(reacted.reactions).toEqual([{ thumbsup: ["bob"] }, { "+1": ["bob"] }]);

    const hearts = await alice.messages.update(sent.id, {
      reactions: { heart: ["alice"], thumbsup: ["bob", "alice"] },
    });
    expect(hearts.reactions).toEqual([
      { thumbsup: ["bob", "alice"] },
      { "+1": ["bob"] },
      { heart: ["alice"] },
    ]);

    // A list without you takes your reaction off, and only yours.
    const replaced = await bob.messages.update(sent.id, {
      reactions: { thumbsup: ["bob"], "+1": [] },
    });
    expect(replaced.reactions).toEqual([{ thumbsup: ["bob", "alice"] }, { heart: ["alice"] }]);
    const removed = await alice.messages.update(sent.id, {
      reactions: { heart: [], thumbsup: ["bob"] },
    });
    expect(removed.reactions).toEqual([{ thumbsup: ["bob"] }]);

    const more = await alice.messages.update(sent.id, {
      attachments: [
        {
          file_url: "https://files.example.com/b.txt",
          filename: "b.txt",
          file_type: "text/plain",
          file_size: 3,
        },
      ],
    });
    expect(more.attachments.map((a) => a.filename)).toEqual(["a.png", "b.txt"]);
    expect(more.attachments[1]).toMatchObject({ file_type: "text/plain", file_size: 3 });
    expect(more.message).toBe("second draft");

    // Everything at once, and an empty attachments list that adds nothing.
    const all = await alice.messages.update(sent.id, {
      message: "final",
      reactions: { tada: ["alice"] },
      attachments: [],
    });
    expect(all.message).toBe("final");
    expect(all.reactions).toEqual([{ thumbsup: ["bob"] }, { tada: ["alice"] }]);
    expect(all.attachments).toHaveLength(2);
    expect(await bob.messages.get(sent.id)).toEqual(all);
  });

  it("deletes a message: {id, deleted}, then it is gone", async () => {
    const { alice, conv } = await emptyWithBob();
    const [keep, gone] = await sendMany(alice, conv.id, 2);
    expect(await alice.messages.delete(gone!.id)).toEqual({ id: gone!.id, deleted: true });
    expect(await failure(alice.messages.get(gone!.id))).toMatchObject({
      status: 404,
      code: "not_found",
    });
    expect(ids((await alice.messages.list({ conversation_id: conv.id })).data)).toEqual([keep!.id]);
    expect(await failure(alice.messages.delete(gone!.id))).toMatchObject({ status: 404 });
  });
});

describe("conversations", () => {
  it("creates a conversation with a contact; creating it again returns the same one", async () => {
    const { alice, bob, users, conv: created } = await emptyWithBob();
    expect(created).toMatchObject({ contact_id: users.bob.id, ...UNTOUCHED });
    expect(created.id).toMatch(/^conv_/);
    expect(await alice.conversations.create({ contact_id: users.bob.id })).toEqual(created);
    // From bob's side it is the same conversation, with alice as the contact.
    const fromBob = await bob.conversations.create({ contact_id: users.alice.id });
    expect(fromBob.id).toBe(created.id);
    expect(fromBob.contact_id).toBe(users.alice.id);
  });

  it("creates a group conversation, returning the group's existing one", async () => {
    const { alice } = await start();
    const design = await alice.conversations.create({ group_id: "grp_design" });
    expect(design).toMatchObject({ group_id: "grp_design", contact_id: null, is_pinned: true });
    expect((await alice.conversations.create({ group_id: "grp_design" })).id).toBe(design.id);
  });

  it("lists by activity and filters by muted, archived, pinned and group_id", async () => {
    const { alice } = await start();
    const all = (await alice.conversations.list({ limit: 100 })).data;
    expect(all.length).toBeGreaterThan(10);
    const activity = all.map((c) => c.last_active_at ?? c.created_at);
    expect(activity).toEqual([...activity].sort((a, b) => b - a));

    const check = async (
      filter: "muted" | "archived" | "pinned",
      field: (c: Conversation) => boolean,
    ) => {
      const yes = (await alice.conversations.list({ [filter]: true, limit: 100 })).data;
      const no = (await alice.conversations.list({ [filter]: false, limit: 100 })).data;
      expect(yes.length).toBeGreaterThan(0);
      expect(yes.every(field)).toBe(true);
      expect(no.every((c) => !field(c))).toBe(true);
      expect(yes.length + no.length).toBe(all.length);
    };
    await check("muted", (c) => c.is_muted);
    await check("archived", (c) => c.archived_at !== null);
    await check("pinned", (c) => c.is_pinned);

    const both = (await alice.conversations.list({ pinned: true, archived: false, limit: 100 }))
      .data;
    expect(both.every((c) => c.is_pinned && c.archived_at === null)).toBe(true);

    const lunch = (await alice.conversations.list({ group_id: "grp_lunch" })).data;
    expect(lunch).toHaveLength(1);
    expect(lunch[0]).toMatchObject({ group_id: "grp_lunch", is_muted: true });

    const limited = await alice.conversations.list({ limit: 2 });
    expect(ids(limited.data)).toEqual(ids(all.slice(0, 2)));
    expect(limited.has_more).toBe(true);
  });

  it("pages through conversations both ways, and with the iterator", async () => {
    const { alice } = await start();
    const all = ids((await alice.conversations.list({ limit: 100 })).data);
    const second = await alice.conversations.list({ limit: 3, starting_after: all[2]! });
    expect(ids(second.data)).toEqual(all.slice(3, 6));
    const back = await alice.conversations.list({ limit: 3, ending_before: all[3]! });
    expect(ids(back.data)).toEqual(all.slice(0, 3));
    expect(back.has_more).toBe(false);

    const pages = await collect(alice.conversations.pages({ limit: 4 }));
    expect(pages.flat().map((c) => c.id)).toEqual(all);
    expect(pages.slice(0, -1).every((p) => p.length === 4)).toBe(true);

    const unmuted = await collect(alice.conversations.pages({ limit: 2, muted: false }));
    expect(unmuted.flat().every((c) => !c.is_muted)).toBe(true);
    expect(unmuted.flat().length).toBe(
      (await alice.conversations.list({ muted: false, limit: 100 })).data.length,
    );

    const backwards = await collect(
      alice.conversations.pages({ limit: 2, ending_before: all[5]! }),
    );
    expect(backwards.flat().map((c) => c.id)).toEqual([
      ...all.slice(3, 5),
      ...all.slice(1, 3),
      ...all.slice(0, 1),
    ]);
  });

  it("get marks the conversation opened and the others' messages read", async () => {
    const { alice, bob, conv } = await emptyWithBob();
    const sent = await alice.messages.send({ conversation_id: conv.id, message: "are you there?" });
    expect(sent.read_at).toBeNull();

    // alice opening her own conversation does not mark her own message read.
    const mine = await alice.conversations.get(conv.id);
    expect(mine.last_opened_at).not.toBeNull();
    expect((await alice.messages.get(sent.id)).read_at).toBeNull();

    const before = await bob.conversations.list();
    expect(before.data[0]).toMatchObject({ id: conv.id, last_opened_at: null });
    const opened = await bob.conversations.get(conv.id);
    expect(opened.last_opened_at).toBeGreaterThanOrEqual(sent.created_at);
    expect(opened.last_active_at).toBe(sent.created_at);
    expect((await alice.messages.get(sent.id)).read_at).toBeGreaterThanOrEqual(sent.created_at);
  });

  it("pins, mutes, archives and restores, for the user alone", async () => {
    const { alice, bob, conv } = await emptyWithBob();

    const pinned = await alice.conversations.update(conv.id, { is_pinned: true, is_muted: true });
    expect(pinned).toMatchObject({ is_pinned: true, is_muted: true });
    const archivedAt = Math.floor(Date.now() / 1000);
    const archived = await alice.conversations.update(conv.id, { archived_at: archivedAt });
    expect(archived.archived_at).toBe(archivedAt);
    expect(ids((await alice.conversations.list({ archived: true })).data)).toEqual([conv.id]);

    // bob's view is his own.
    expect(await bob.conversations.get(conv.id)).toMatchObject({
      is_pinned: false,
      is_muted: false,
      archived_at: null,
    });

    const restored = await alice.conversations.update(conv.id, { archived_at: null });
    expect(restored.archived_at).toBeNull();
    expect((await alice.conversations.list({ archived: true })).data).toEqual([]);
    const plain = await alice.conversations.update(conv.id, { is_pinned: false, is_muted: false });
    expect(plain).toMatchObject({ is_pinned: false, is_muted: false, archived_at: null });

    // Milliseconds are read as seconds by the server too.
    const ms = await alice.conversations.update(conv.id, { archived_at: archivedAt * 1000 });
    expect(ms.archived_at).toBe(archivedAt);
  });

  it("pins and unpins a message, shared by both members", async () => {
    const { alice, bob, conv } = await emptyWithBob();
    const msg = await alice.messages.send({ conversation_id: conv.id, message: "Ship it Friday?" });

    const pinned = await bob.conversations.update(conv.id, { pinned_message_id: msg.id });
    expect(pinned.pinned_message_id).toBe(msg.id);
    expect((await alice.conversations.get(conv.id)).pinned_message_id).toBe(msg.id);

    const unpinned = await alice.conversations.update(conv.id, { pinned_message_id: null });
    expect(unpinned.pinned_message_id).toBeNull();

    // Deleting the pinned message unpins it.
    await alice.conversations.update(conv.id, { pinned_message_id: msg.id });
    await alice.messages.delete(msg.id);
    expect((await bob.conversations.get(conv.id)).pinned_message_id).toBeNull();
  });

  it("deleting a conversation deletes its messages, for every member", async () => {
    const { alice, bob, users, conv } = await emptyWithBob();
    const [m1, m2] = await sendMany(alice, conv.id, 2);
    expect(await bob.conversations.delete(conv.id)).toEqual({ id: conv.id, deleted: true });
    expect(await failure(alice.conversations.get(conv.id))).toMatchObject({
      status: 404,
      code: "not_found",
    });
    expect(await failure(alice.messages.get(m1!.id))).toMatchObject({ status: 404 });
    expect(await failure(bob.messages.get(m2!.id))).toMatchObject({ status: 404 });
    expect((await alice.messages.list()).data).toEqual([]);
    expect((await alice.conversations.list()).data).toEqual([]);
    // A new conversation with bob is a new one.
    expect((await alice.conversations.create({ contact_id: users.bob.id })).id).not.toBe(conv.id);
  });
});

describe("uploads", () => {
  /** `size` bytes in pieces of 64 KB, as a file is read from disk. */
  async function* pieces(bytes: Uint8Array) {
    for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
  }

  it("tells the limits, streams a file with its progress, and sends it as an attachment", async () => {
    const { alice, users } = await startEmpty({ uploads: { maxBytes: 4 * 1024 * 1024 } });
    expect(await alice.files.limits()).toEqual({
      supported: true,
      maxBytes: 4 * 1024 * 1024,
      quotaBytes: 1024 ** 3,
      usedBytes: 0,
    });
    const bytes = new Uint8Array(3 * 1024 * 1024 + 5).map((_, i) => i % 251);
    const progress: number[] = [];
    const uploaded = await alice.files.upload(
      {
        filename: "Q3 plan «v2».pdf",
        type: "application/pdf",
        size: bytes.length,
        bytes: pieces(bytes),
      },
      (sent) => progress.push(sent),
    );
    expect(uploaded).toMatchObject({
      filename: "Q3 plan «v2».pdf",
      file_type: "application/pdf",
      file_size: bytes.length,
    });
    expect(progress.at(-1)).toBe(bytes.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.length).toBeGreaterThan(10);
    const fetched = new Uint8Array(await (await fetch(uploaded!.file_url)).arrayBuffer());
    expect(Buffer.from(fetched).equals(Buffer.from(bytes))).toBe(true);
    const conv = await alice.conversations.create({ contact_id: users.bob.id });
    const sent = await alice.messages.send({
      conversation_id: conv.id,
      message: "the plan",
      attachments: [uploaded!],
    });
    expect(sent.attachments[0]).toMatchObject({
      file_url: uploaded!.file_url,
      file_size: bytes.length,
    });
  });

  it("413 past the limit as an ApiError naming it; a server without uploads is no error", async () => {
    const { alice } = await startEmpty({ uploads: { maxBytes: 1024 * 1024 } });
    const bytes = new Uint8Array(1024 * 1024 + 1);
    const error = await failure(
      alice.files.upload({
        filename: "big.bin",
        type: "",
        size: bytes.length,
        bytes: pieces(bytes),
      }),
    );
    expect(error).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(error.message).toContain("this server's limit of 1 MB");
    const none = await startEmpty({ uploads: false });
    expect(await none.alice.files.limits()).toEqual({ supported: false });
    const small = new Uint8Array(10);
    expect(
      await none.alice.files.upload({
        filename: "a.txt",
        type: "text/plain",
        size: 10,
        bytes: pieces(small),
      }),
    ).toBeUndefined();
  });
});

describe("errors from the server, as ApiErrors", () => {
  it("400 names the parameter", async () => {
    const { alice, users, conv } = await emptyWithBob();

    expect(await failure(alice.messages.list({ limit: 0 }))).toMatchObject({
      status: 400,
      type: "invalid_request",
      code: "parameter_invalid",
      param: "limit",
    });
    expect(await failure(alice.conversations.list({ limit: 101 }))).toMatchObject({
      param: "limit",
    });
    expect(await failure(alice.messages.list({ limit: 2.5 }))).toMatchObject({ param: "limit" });
    expect(
      await failure(alice.messages.send({ conversation_id: conv.id, message: "   " })),
    ).toMatchObject({ status: 400, param: "message" });
    expect(
      await failure(alice.messages.send({ conversation_id: conv.id, message: "x".repeat(10_001) })),
    ).toMatchObject({ status: 400, param: "message" });
    expect(
      await failure(
        alice.messages.send({
          conversation_id: conv.id,
          message: "hi",
          attachments: [{ file_url: "ftp://x/y" }],
        }),
      ),
    ).toMatchObject({ status: 400, param: "attachments[0][file_url]" });
    expect(
      await failure(alice.messages.list({ conversation_id: conv.id, starting_after: "msg_nope" })),
    ).toMatchObject({ status: 400, param: "starting_after" });
    expect(
      await failure(alice.conversations.list({ starting_after: conv.id, ending_before: conv.id })),
    ).toMatchObject({ status: 400, code: "parameter_invalid" });
    expect(await failure(alice.conversations.create({ contact_id: users.alice.id }))).toMatchObject(
      {
        status: 400,
        param: "contact_id",
      },
    );
    expect(
      await failure(alice.conversations.create({ contact_id: "", group_id: "" } as never)),
    ).toMatchObject({ status: 400, code: "parameter_missing" });

    const error = await failure(alice.messages.list({ limit: 0 }));
    expect(error.message).toMatch(/limit/);
    expect(error.message.length).toBeGreaterThan(10);
  });

  it("400 for pinning a message of another conversation", async () => {
    const { alice, users, conv: withBob } = await emptyWithBob();
    const withCarol = await alice.conversations.create({ contact_id: users.carol.id });
    const msg = await alice.messages.send({ conversation_id: withCarol.id, message: "x" });
    expect(
      await failure(alice.conversations.update(withBob.id, { pinned_message_id: msg.id })),
    ).toMatchObject({ status: 400, param: "pinned_message_id" });
  });

  it("401 for an unknown token, without retrying", async () => {
    const { server } = await startEmpty();
    const api = createApi({ baseUrl: server.url, token: "prly_wrong", retryDelayMs: 5 });
    const error = await failure(api.conversations.list());
    expect(error).toMatchObject({ status: 401, type: "invalid_request", code: "unauthenticated" });
    expect(error.message).toMatch(/token/i);
    expect(
      await failure(createApi({ baseUrl: server.url, token: "" }).messages.list()),
    ).toMatchObject({
      status: 401,
    });
  });

  it("403 for editing or deleting someone else's message", async () => {
    const { alice, bob, conv } = await emptyWithBob();
    const msg = await alice.messages.send({ conversation_id: conv.id, message: "mine" });
    expect(await failure(bob.messages.update(msg.id, { message: "yours now" }))).toMatchObject({
      status: 403,
      type: "invalid_request",
      code: "forbidden",
    });
    expect(await failure(bob.messages.delete(msg.id))).toMatchObject({
      status: 403,
      code: "forbidden",
    });
    expect((await alice.messages.get(msg.id)).message).toBe("mine");
  });

  it("404 for unknown ids and for what the user may not see", async () => {
    const { alice, carol, conv } = await emptyWithBob();
    const msg = await alice.messages.send({ conversation_id: conv.id, message: "private" });
    for (const call of [
      () => alice.messages.get("msg_nope"),
      () => alice.messages.update("msg_nope", { message: "x" }),
      () => alice.messages.delete("msg_nope"),
      () => alice.conversations.get("conv_nope"),
      () => alice.conversations.update("conv_nope", { is_muted: true }),
      () => alice.conversations.delete("conv_nope"),
      () => carol.conversations.get(conv.id),
      () => carol.messages.get(msg.id),
      () => carol.messages.list({ conversation_id: conv.id }),
      () => carol.messages.send({ conversation_id: conv.id, message: "let me in" }),
      () => alice.messages.get("a/b?c#d"),
    ]) {
      expect(await failure(call())).toMatchObject({
        status: 404,
        type: "invalid_request",
        code: "not_found",
      });
    }
    expect(await failure(alice.conversations.create({ contact_id: "ct_nobody" }))).toMatchObject({
      status: 404,
      param: "contact_id",
    });
    expect(await failure(alice.conversations.create({ group_id: "grp_nope" }))).toMatchObject({
      status: 404,
      param: "group_id",
    });
  });

  it("409 for an idempotency key reused with other parameters", async () => {
    const { alice, conv } = await emptyWithBob();
    await alice.messages.send({ conversation_id: conv.id, message: "a" }, { idempotencyKey: "k" });
    expect(
      await failure(
        alice.messages.send({ conversation_id: conv.id, message: "b" }, { idempotencyKey: "k" }),
      ),
    ).toMatchObject({ status: 409, code: "idempotency_conflict" });
    expect((await alice.messages.list({ conversation_id: conv.id })).data).toHaveLength(1);
  });

  it("413 for a body over 1 MiB", async () => {
    const { alice, conv } = await emptyWithBob();
    const error = await failure(
      alice.messages.send({ conversation_id: conv.id, message: "x".repeat(1024 * 1024 + 10) }),
    );
    expect(error).toMatchObject({ status: 413, code: "payload_too_large" });
  });

  it("415 for a body that is neither a form nor JSON (raw fetch: the client always sends forms)", async () => {
    const { server, users } = await startEmpty();
    const response = await fetch(`${server.url}/v1/conversations`, {
      method: "POST",
      headers: { authorization: `Bearer ${users.alice.token}`, "content-type": "text/plain" },
      body: "contact_id=ct_bob",
    });
    expect(response.status).toBe(415);
    // What the client makes of that answer.
    const { errorFromResponse } = await import("../../src/api/errors.ts");
    const error = errorFromResponse({
      status: response.status,
      body: await response.text(),
      contentType: response.headers.get("content-type"),
    });
    expect(error).toMatchObject({
      status: 415,
      type: "invalid_request",
      code: "unsupported_media_type",
    });
    expect(error.message).toMatch(/form|json/i);
  });

  it("429: honours Retry-After, then succeeds", async () => {
    const { alice } = await startEmpty({ rateLimit: { perSecond: 1, burst: 1 } });
    await alice.conversations.list();
    const started = Date.now();
    const page = await alice.conversations.list();
    expect(page.data).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("429 as an ApiError with retryAfter when no retries are left", async () => {
    const { as } = await startEmpty({ rateLimit: { perSecond: 1, burst: 1 } });
    const alice = as("alice", { retries: 0 });
    await alice.conversations.list();
    const error = await failure(alice.conversations.list());
    expect(error).toMatchObject({ status: 429, code: "rate_limited" });
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it("500 as an ApiError of type api_error, after the GET retries", async () => {
    let calls = 0;
    const { as } = await startEmpty({
      faults: () => {
        calls++;
        throw new Error("injected fault");
      },
    });
    const error = await failure(as("alice", { retries: 2 }).conversations.list());
    expect(error).toMatchObject({ status: 500, type: "api_error", code: "internal" });
    expect(error.message).not.toMatch(/injected/);
    expect(calls).toBe(3);
  });

  it("500 on a PUT is not retried", async () => {
    let calls = 0;
    const { alice, users } = await startEmpty({
      faults: ({ method }) => {
        if (method === "PUT") {
          calls++;
          throw new Error("injected fault");
        }
      },
    });
    const conv = await alice.conversations.create({ contact_id: users.bob.id });
    expect(await failure(alice.conversations.update(conv.id, { is_muted: true }))).toMatchObject({
      status: 500,
    });
    expect(calls).toBe(1);
  });

  it("GET retries through 500s with backoff and succeeds", async () => {
    let failures = 2;
    const { alice } = await start({
      faults: ({ method }) => {
        if (method === "GET" && failures > 0) {
          failures--;
          throw new Error("injected fault");
        }
      },
    });
    const page = await alice.conversations.list({ limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(failures).toBe(0);
  });
});
