// /v1/messages: lists, sending in both encodings, edits, deletes, validation.
import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_LENGTH } from "../../src/api/schema.ts";
import {
  contactConversation,
  conversationPage,
  deleted,
  failure,
  groupConversation,
  invalid,
  message,
  messagePage,
  messagePages,
  sendMessage,
  type TestServer,
  useServer,
} from "./helpers.ts";

const newestFirst = (list: { created_at: number; id: string }[]) =>
  list.every((m, i) => {
    const prev = list[i - 1];
    return (
      !prev ||
      prev.created_at > m.created_at ||
      (prev.created_at === m.created_at && prev.id > m.id)
    );
  });

describe("GET /v1/messages", () => {
  const t = useServer();

  it("lists a conversation's messages newest first, ten by default, up to 100", async () => {
    const alice = t.as("alice");
    const team = await groupConversation(alice, "grp_team");
    const page = messagePage(await alice.get("/v1/messages", { conversation_id: team }));
    expect(page.data).toHaveLength(10);
    expect(page.has_more).toBe(true);
    expect(newestFirst(page.data)).toBe(true);
    expect(page.data.every((m) => m.conversation_id === team)).toBe(true);
    expect(
      messagePage(await alice.get("/v1/messages", { conversation_id: team, limit: 100 })).data,
    ).toHaveLength(100);
    for (const limit of [0, 101, -1, "1.5", "x"]) {
      invalid(await alice.get("/v1/messages", { conversation_id: team, limit }), "limit");
    }
  });

  it("walks the whole history with starting_after, and back with ending_before", async () => {
    const alice = t.as("alice");
    const team = await groupConversation(alice, "grp_team");
    const pages = (await messagePages(alice, team)).map((page) => page.map((m) => m.id));
    const ids = pages.flat();
    expect(ids.length).toBeGreaterThanOrEqual(500);
    expect(new Set(ids).size).toBe(ids.length);
    // Back from the start of the third page: the second page, in list order.
    const back = messagePage(
      await alice.get("/v1/messages", {
        conversation_id: team,
        limit: 100,
        ending_before: pages[2]![0],
      }),
    );
    expect(back.data.map((m) => m.id)).toEqual(pages[1]);
    expect(back.has_more).toBe(true);
    const top = messagePage(
      await alice.get("/v1/messages", { conversation_id: team, limit: 5, ending_before: ids[3] }),
    );
    expect(top.data.map((m) => m.id)).toEqual(ids.slice(0, 3));
    expect(top.has_more).toBe(false);
  });

  it("lists the newest messages across the user's conversations without conversation_id", async () => {
    const alice = t.as("alice");
    const mine = new Set(
      conversationPage(await alice.get("/v1/conversations", { limit: 100 })).data.map((c) => c.id),
    );
    const page = messagePage(await alice.get("/v1/messages", { limit: 100 }));
    expect(page.data).toHaveLength(100);
    expect(newestFirst(page.data)).toBe(true);
    expect(page.data.every((m) => mine.has(m.conversation_id))).toBe(true);
    expect(new Set(page.data.map((m) => m.conversation_id)).size).toBeGreaterThan(1);
    const next = messagePage(
      await alice.get("/v1/messages", { limit: 100, starting_after: page.data.at(-1)!.id }),
    );
    expect(next.data[0]!.created_at).toBeLessThanOrEqual(page.data.at(-1)!.created_at);
  });

  it("rejects a cursor from another conversation, an unknown one, and both at once", async () => {
    const alice = t.as("alice");
    const team = await groupConversation(alice, "grp_team");
    const design = await groupConversation(alice, "grp_design");
    const [other] = messagePage(await alice.get("/v1/messages", { conversation_id: design })).data;
    invalid(
      await alice.get("/v1/messages", { conversation_id: team, starting_after: other!.id }),
      "starting_after",
    );
    invalid(await alice.get("/v1/messages", { ending_before: "msg_nope" }), "ending_before");
    invalid(
      await alice.get("/v1/messages", { starting_after: other!.id, ending_before: other!.id }),
      "ending_before",
    );
  });

  it("orders messages sent within the same second by id", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_dave");
    const sent = [];
    for (let i = 0; i < 5; i++) {
      sent.push(
        message(await alice.post("/v1/messages", { conversation_id: id, message: `burst ${i}` })),
      );
    }
    const listed = messagePage(
      await alice.get("/v1/messages", { conversation_id: id, limit: 5 }),
    ).data;
    expect(listed.map((m) => m.message)).toEqual([
      "burst 4",
      "burst 3",
      "burst 2",
      "burst 1",
      "burst 0",
    ]);
    expect([...sent.map((m) => m.id)].sort()).toEqual(sent.map((m) => m.id));
  });
});

describe("list freshness", () => {
  const t = useServer();

  it("shows every change in the next list, though pages are cached", async () => {
    const [alice, bob] = [t.as("alice"), t.as("bob")];
    const id = await contactConversation(alice, "ct_bob");
    const newest = async (who = alice) =>
      messagePage(await who.get("/v1/messages", { conversation_id: id, limit: 3 })).data[0]!;
    const sent = message(await alice.post("/v1/messages", { conversation_id: id, message: "v1" }));
    expect((await newest()).id).toBe(sent.id);
    expect((await newest(bob)).read_at).toBeNull();
    await alice.put(`/v1/messages/${sent.id}`, { message: "v2" });
    expect((await newest()).message).toBe("v2");
    await bob.put(`/v1/messages/${sent.id}`, { reactions: { heart: ["bob"] } });
    expect((await newest(bob)).reactions).toEqual([{ heart: ["bob"] }]);
    await alice.put(`/v1/messages/${sent.id}`, {
      attachments: [{ file_url: "https://x.example.com/f.png" }],
    });
    expect((await newest(bob)).attachments).toHaveLength(1);
    await bob.get(`/v1/conversations/${id}`);
    expect((await newest()).read_at).not.toBeNull();
    const all = messagePage(await alice.get("/v1/messages", { limit: 1 })).data[0]!;
    expect(all.id).toBe(sent.id);
    await alice.del(`/v1/messages/${sent.id}`);
    expect((await newest()).id).not.toBe(sent.id);
    expect(messagePage(await alice.get("/v1/messages", { limit: 1 })).data[0]!.id).not.toBe(
      sent.id,
    );
  });
});

describe("POST /v1/messages", () => {
  const t = useServer();

  it("sends a form-encoded message", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_bob");
    const before = Math.floor(Date.now() / 1000);
    const sent = message(
      await alice.post(
        "/v1/messages",
        `conversation_id=${id}&message=${encodeURIComponent("  hello bob & co  ")}`,
      ),
    );
    expect(sent).toMatchObject({
      conversation_id: id,
      message: "hello bob & co",
      reactions: [],
      attachments: [],
      read_at: null,
      updated_at: null,
    });
    expect(sent.id).toMatch(/^msg_/);
    expect(sent.created_at).toBeGreaterThanOrEqual(before);
    expect(sent.contact).toMatchObject({
      id: "ct_alice",
      username: "alice",
      avatar_url: "https://avatars.example.com/alice.png",
    });
    expect(message(await t.as("bob").get(`/v1/messages/${sent.id}`))).toEqual(sent);
  });

  it("sends a JSON message with attachments", async () => {
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_design");
    const sent = message(
      await alice.post(
        "/v1/messages",
        {
          conversation_id: id,
          message: "specs attached",
          attachments: [
            {
              file_url: "https://files.example.com/spec.pdf",
              filename: "spec.pdf",
              file_type: "application/pdf",
              file_size: 1234,
            },
            { file_url: "http://files.example.com/img/photo%20one.png" },
          ],
        },
        { as: "json" },
      ),
    );
    expect(sent.attachments).toHaveLength(2);
    const [pdf, png] = sent.attachments;
    expect(pdf).toMatchObject({
      message_id: sent.id,
      filename: "spec.pdf",
      file_url: "https://files.example.com/spec.pdf",
      file_type: "application/pdf",
      file_size: 1234,
      created_at: sent.created_at,
    });
    expect(pdf?.id).toMatch(/^att_/);
    expect(png).toMatchObject({ filename: "photo one.png", file_type: null, file_size: null });
    expect(message(await t.as("carol").get(`/v1/messages/${sent.id}`))).toEqual(sent);
    expect(Object.keys(pdf!).sort()).toEqual([
      "created_at",
      "file_size",
      "file_type",
      "file_url",
      "filename",
      "id",
      "message_id",
    ]);
  });

  it("takes attachments in bracket notation", async () => {
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_design");
    const body = [
      `conversation_id=${id}`,
      "message=mockups",
      `attachments[0][file_url]=${encodeURIComponent("https://files.example.com/m.png")}`,
      "attachments[0][filename]=m.png",
      "attachments[0][file_type]=image/png",
      "attachments[0][file_size]=48213",
    ].join("&");
    const sent = message(await alice.post("/v1/messages", body));
    expect(sent.attachments).toMatchObject([
      {
        filename: "m.png",
        file_url: "https://files.example.com/m.png",
        file_type: "image/png",
        file_size: 48213,
      },
    ]);
  });

  it("validates the text: 1 to 10,000 characters after trimming", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_erin");
    const longest = "ü".repeat(MAX_MESSAGE_LENGTH);
    expect(
      message(await alice.post("/v1/messages", { conversation_id: id, message: ` ${longest} ` }))
        .message,
    ).toBe(longest);
    invalid(
      await alice.post("/v1/messages", { conversation_id: id, message: `${longest}!` }),
      "message",
    );
    invalid(
      await alice.post("/v1/messages", { conversation_id: id, message: " \n\t " }),
      "message",
    );
    failure(
      await alice.post("/v1/messages", { conversation_id: id }),
      400,
      "parameter_missing",
      "message",
    );
    invalid(
      await alice.post("/v1/messages", { conversation_id: id, message: 5 }, { as: "json" }),
      "message",
    );
    failure(
      await alice.post("/v1/messages", { conversation_id: "conv_nope", message: "hi" }),
      404,
      "not_found",
      "conversation_id",
    );
  });

  it("validates attachments", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_erin");
    const send = (attachments: unknown) =>
      alice.post(
        "/v1/messages",
        { conversation_id: id, message: "file", attachments },
        { as: "json" },
      );
    invalid(await send([{ file_url: "ftp://x.example.com/a" }]), "attachments[0][file_url]");
    invalid(await send([{ file_url: "javascript:alert(1)" }]), "attachments[0][file_url]");
    failure(
      await send([{ filename: "a.pdf" }]),
      400,
      "parameter_missing",
      "attachments[0][file_url]",
    );
    invalid(
      await send([
        { file_url: "https://x.example.com/a" },
        { file_url: "https://x.example.com/b", file_size: 1.5 },
      ]),
      "attachments[1][file_size]",
    );
    invalid(
      await send([{ file_url: "https://x.example.com/a", file_type: "pdf" }]),
      "attachments[0][file_type]",
    );
    invalid(await send("nope"), "attachments");
  });
});

/** alice's message `text` to bob, for the tests that change it. */
async function aliceToBob(t: TestServer, text: string) {
  const [alice, bob] = [t.as("alice"), t.as("bob")];
  const id = await contactConversation(alice, "ct_bob");
  return { alice, bob, id, sent: await sendMessage(alice, id, text) };
}

describe("PUT /v1/messages/:id", () => {
  const t = useServer();

  it("edits the text (sender only) and sets updated_at", async () => {
    const { alice, bob, sent } = await aliceToBob(t, "helo");
    const edited = message(await alice.put(`/v1/messages/${sent.id}`, { message: " hello " }));
    expect(edited.message).toBe("hello");
    expect(edited.updated_at).toBeGreaterThanOrEqual(sent.created_at);
    expect(edited.created_at).toBe(sent.created_at);
    failure(await bob.put(`/v1/messages/${sent.id}`, { message: "hijacked" }), 403, "forbidden");
    invalid(await alice.put(`/v1/messages/${sent.id}`, { message: "" }), "message");
    expect(message(await bob.get(`/v1/messages/${sent.id}`)).message).toBe("hello");
  });

  it("lets the sender add attachments, to the existing ones; anyone else gets 403", async () => {
    const [alice, carol] = [t.as("alice"), t.as("carol")];
    const id = await groupConversation(alice, "grp_design");
    const sent = await sendMessage(alice, id, "files", {
      attachments: [{ file_url: "https://files.example.com/1.png" }],
    });
    const more =
      "attachments[0][file_url]=https%3A%2F%2Ffiles.example.com%2F2.png&attachments[1][file_url]=https%3A%2F%2Ffiles.example.com%2F3.pdf";
    failure(await carol.put(`/v1/messages/${sent.id}`, more), 403, "forbidden");
    failure(
      await carol.put(
        `/v1/messages/${sent.id}`,
        { attachments: [{ file_url: "https://evil.example.com/x.exe" }], reactions: { joy: [] } },
        { as: "json" },
      ),
      403,
      "forbidden",
    );
    expect(message(await carol.get(`/v1/messages/${sent.id}`)).attachments).toHaveLength(1);
    const added = message(await alice.put(`/v1/messages/${sent.id}`, more));
    expect(added.attachments.map((a) => a.filename)).toEqual(["1.png", "2.png", "3.pdf"]);
    // Adding attachments is not an edit of the text.
    expect(added.updated_at).toBeNull();
    expect(added.message).toBe("files");
  });
});

describe("DELETE /v1/messages/:id", () => {
  const t = useServer();

  it("deletes permanently (sender only) and answers {id, deleted: true}", async () => {
    const { alice, bob, id, sent } = await aliceToBob(t, "oops");
    failure(await bob.del(`/v1/messages/${sent.id}`), 403, "forbidden");
    deleted(await alice.del(`/v1/messages/${sent.id}`), sent.id);
    failure(await alice.get(`/v1/messages/${sent.id}`), 404, "not_found");
    failure(await alice.del(`/v1/messages/${sent.id}`), 404, "not_found");
    const list = messagePage(
      await bob.get("/v1/messages", { conversation_id: id, limit: 100 }),
    ).data;
    expect(list.map((m) => m.id)).not.toContain(sent.id);
  });
});
