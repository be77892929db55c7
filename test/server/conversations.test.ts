// /v1/conversations: lists, filters, creation, per-user state, visibility, deletion.
import { describe, expect, it } from "vitest";
import {
  contactConversation,
  conversation,
  conversationPage,
  deleted,
  failure,
  groupConversation,
  invalid,
  message,
  messagePage,
  sendMessage,
  useServer,
} from "./helpers.ts";

const activity = (c: { last_active_at: number | null; created_at: number }) =>
  c.last_active_at ?? c.created_at;

describe("GET /v1/conversations", () => {
  const t = useServer();

  it("lists ten by default, by activity, newest first", async () => {
    const page = conversationPage(await t.as("alice").get("/v1/conversations"));
    expect(page.data).toHaveLength(10);
    expect(page.has_more).toBe(true);
    for (let i = 1; i < page.data.length; i++) {
      const [a, b] = [page.data[i - 1]!, page.data[i]!];
      expect(activity(a) > activity(b) || (activity(a) === activity(b) && a.id > b.id)).toBe(true);
    }
  });

  it("pages forward with starting_after and back with ending_before", async () => {
    const alice = t.as("alice");
    const all = conversationPage(await alice.get("/v1/conversations", { limit: 100 }));
    expect(all.has_more).toBe(false);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = conversationPage(
        await alice.get("/v1/conversations", {
          limit: 4,
          ...(after ? { starting_after: after } : {}),
        }),
      );
      seen.push(...page.data.map((c) => c.id));
      if (!page.has_more) break;
      after = page.data.at(-1)!.id;
    }
    expect(seen).toEqual(all.data.map((c) => c.id));

    const second = conversationPage(
      await alice.get("/v1/conversations", { limit: 4, starting_after: seen[3] }),
    );
    const back = conversationPage(
      await alice.get("/v1/conversations", { limit: 4, ending_before: second.data[0]!.id }),
    );
    expect(back.data.map((c) => c.id)).toEqual(seen.slice(0, 4));
    expect(back.has_more).toBe(false);
    const partial = conversationPage(
      await alice.get("/v1/conversations", { limit: 2, ending_before: second.data[0]!.id }),
    );
    expect(partial.data.map((c) => c.id)).toEqual(seen.slice(2, 4));
    expect(partial.has_more).toBe(true);
  });

  it("rejects both cursors at once and a cursor it does not know", async () => {
    const alice = t.as("alice");
    const [first] = conversationPage(await alice.get("/v1/conversations")).data;
    invalid(
      await alice.get("/v1/conversations", { starting_after: first!.id, ending_before: first!.id }),
      "ending_before",
    );
    invalid(
      await alice.get("/v1/conversations", { starting_after: "conv_nope" }),
      "starting_after",
    );
    const hidden = await groupConversation(t.as("bob"), "grp_backend");
    invalid(await alice.get("/v1/conversations", { ending_before: hidden }), "ending_before");
  });

  it("filters by muted, archived, pinned (false selects the opposite) and group_id", async () => {
    const alice = t.as("alice");
    const all = conversationPage(await alice.get("/v1/conversations", { limit: 100 })).data;
    for (const [param, field] of [
      ["muted", "is_muted"],
      ["pinned", "is_pinned"],
    ] as const) {
      const yes = conversationPage(
        await alice.get("/v1/conversations", { limit: 100, [param]: "true" }),
      ).data;
      const no = conversationPage(
        await alice.get("/v1/conversations", { limit: 100, [param]: "0" }),
      ).data;
      expect(yes.length).toBeGreaterThan(0);
      expect(yes.every((c) => c[field])).toBe(true);
      expect(no.every((c) => !c[field])).toBe(true);
      expect(yes.length + no.length).toBe(all.length);
    }
    const archived = conversationPage(
      await alice.get("/v1/conversations", { archived: 1, limit: 100 }),
    ).data;
    const active = conversationPage(
      await alice.get("/v1/conversations", { archived: false, limit: 100 }),
    ).data;
    expect(archived.length).toBeGreaterThan(0);
    expect(archived.every((c) => c.archived_at !== null)).toBe(true);
    expect(active.every((c) => c.archived_at === null)).toBe(true);
    expect(archived.length + active.length).toBe(all.length);
    const design = conversationPage(
      await alice.get("/v1/conversations", { group_id: "grp_design" }),
    ).data;
    expect(design).toHaveLength(1);
    expect(design[0]!.group_id).toBe("grp_design");
    const none = conversationPage(
      await alice.get("/v1/conversations", { group_id: "grp_backend" }),
    );
    expect(none).toEqual({ has_more: false, data: [] });
    invalid(await alice.get("/v1/conversations", { muted: "maybe" }), "muted");
  });
});

describe("POST /v1/conversations", () => {
  const t = useServer();

  it("creates a conversation with a contact that both see, each with the other as contact_id", async () => {
    const created = conversation(
      await t.as("bob").post("/v1/conversations", { contact_id: "ct_erin" }),
    );
    expect(created).toMatchObject({
      contact_id: "ct_erin",
      group_id: null,
      pinned_message_id: null,
      is_pinned: false,
      is_muted: false,
      archived_at: null,
      last_active_at: null,
      last_opened_at: null,
    });
    expect(created.id).toMatch(/^conv_/);
    const erinSees = conversation(await t.as("erin").get(`/v1/conversations/${created.id}`));
    expect(erinSees.contact_id).toBe("ct_bob");
    const again = conversation(
      await t.as("erin").post("/v1/conversations", { contact_id: "ct_bob" }, { as: "json" }),
    );
    expect(again.id).toBe(created.id);
    failure(await t.as("alice").get(`/v1/conversations/${created.id}`), 404, "not_found");
  });

  it("returns the existing conversation of a pair or a group", async () => {
    const alice = t.as("alice");
    const listed = conversationPage(await alice.get("/v1/conversations", { limit: 100 })).data;
    const withCarol = listed.find((c) => c.contact_id === "ct_carol")!;
    expect(await contactConversation(alice, "ct_carol")).toBe(withCarol.id);
    const design = listed.find((c) => c.group_id === "grp_design")!;
    expect(await groupConversation(alice, "grp_design")).toBe(design.id);
    expect(await groupConversation(t.as("erin"), "grp_design")).toBe(design.id);
  });

  it("rejects yourself, both, neither; 404 for unknown contacts and groups one is not in", async () => {
    const alice = t.as("alice");
    invalid(await alice.post("/v1/conversations", { contact_id: "ct_alice" }), "contact_id");
    failure(
      await alice.post("/v1/conversations", { contact_id: "ct_bob", group_id: "grp_design" }),
      400,
      "parameter_invalid",
    );
    failure(await alice.post("/v1/conversations", {}), 400, "parameter_missing", "contact_id");
    failure(
      await alice.post("/v1/conversations", { contact_id: "" }, { as: "json" }),
      400,
      "parameter_missing",
      "contact_id",
    );
    failure(
      await alice.post("/v1/conversations", { contact_id: "ct_zed" }),
      404,
      "not_found",
      "contact_id",
    );
    failure(
      await alice.post("/v1/conversations", { group_id: "grp_backend" }),
      404,
      "not_found",
      "group_id",
    );
    failure(
      await alice.post("/v1/conversations", { group_id: "grp_nope" }),
      404,
      "not_found",
      "group_id",
    );
    invalid(
      await alice.post("/v1/conversations", { contact_id: 42 }, { as: "json" }),
      "contact_id",
    );
  });

  it("makes group conversations visible to every member and nobody else", async () => {
    const backend = await groupConversation(t.as("dave"), "grp_backend");
    for (const member of ["bob", "dave", "frank"]) {
      expect(conversation(await t.as(member).get(`/v1/conversations/${backend}`)).group_id).toBe(
        "grp_backend",
      );
    }
    for (const outsider of ["alice", "carol", "erin"]) {
      failure(await t.as(outsider).get(`/v1/conversations/${backend}`), 404, "not_found");
    }
  });
});

describe("GET /v1/conversations/:id", () => {
  const t = useServer();

  it("sets last_opened_at and read_at on others' unread messages, not on one's own", async () => {
    const [bob, frank] = [t.as("bob"), t.as("frank")];
    const id = await contactConversation(bob, "ct_frank");
    const fromBob = await sendMessage(bob, id, "hi frank");
    const fromFrank = await sendMessage(frank, id, "hi bob");
    expect(fromBob.read_at).toBeNull();
    const before = Math.floor(Date.now() / 1000);
    const opened = conversation(await bob.get(`/v1/conversations/${id}`));
    expect(opened.last_opened_at).toBeGreaterThanOrEqual(before);
    const page = messagePage(await bob.get("/v1/messages", { conversation_id: id }));
    const byId = new Map(page.data.map((m) => [m.id, m]));
    expect(byId.get(fromFrank.id)!.read_at).toBeGreaterThanOrEqual(before);
    expect(byId.get(fromBob.id)!.read_at).toBeNull();
    // Frank's own settings are his: bob opening the conversation does not open it for frank.
    expect(
      conversation(await frank.get(`/v1/conversations/${id}`)).last_opened_at,
    ).toBeGreaterThanOrEqual(before);
    expect(message(await bob.get(`/v1/messages/${fromBob.id}`)).read_at).toBeGreaterThanOrEqual(
      before,
    );
  });

  it("keeps last_active_at at the newest message's send time", async () => {
    const [carol, dave] = [t.as("carol"), t.as("dave")];
    const id = await contactConversation(carol, "ct_dave");
    expect(conversation(await carol.get(`/v1/conversations/${id}`)).last_active_at).toBeNull();
    const first = await sendMessage(carol, id, "one");
    expect(conversation(await dave.get(`/v1/conversations/${id}`)).last_active_at).toBe(
      first.created_at,
    );
    const second = await sendMessage(dave, id, "two");
    expect(conversation(await dave.get(`/v1/conversations/${id}`)).last_active_at).toBe(
      second.created_at,
    );
    deleted(await dave.del(`/v1/messages/${second.id}`), second.id);
    expect(conversation(await dave.get(`/v1/conversations/${id}`)).last_active_at).toBe(
      first.created_at,
    );
  });
});

describe("PUT /v1/conversations/:id", () => {
  const t = useServer();

  it("keeps is_pinned, is_muted and archived_at per user", async () => {
    const [alice, bob] = [t.as("alice"), t.as("bob")];
    const id = await groupConversation(alice, "grp_oncall");
    const bobBefore = conversation(await bob.get(`/v1/conversations/${id}`));
    const muted = conversation(
      await bob.put(`/v1/conversations/${id}`, { is_muted: "true", is_pinned: "1" }),
    );
    expect(muted).toMatchObject({ is_muted: true, is_pinned: true });
    const aliceView = conversation(await alice.get(`/v1/conversations/${id}`));
    expect(aliceView).toMatchObject({ is_muted: false, is_pinned: false, archived_at: null });
    expect(bobBefore.is_muted).toBe(false);
    const archived = conversation(
      await alice.put(`/v1/conversations/${id}`, { archived_at: 1_700_000_000 }, { as: "json" }),
    );
    expect(archived.archived_at).toBe(1_700_000_000);
    expect(conversation(await bob.get(`/v1/conversations/${id}`)).archived_at).toBeNull();
    const unmuted = conversation(
      await bob.put(`/v1/conversations/${id}`, { is_muted: false }, { as: "json" }),
    );
    expect(unmuted).toMatchObject({ is_muted: false, is_pinned: true });
  });

  it("restores from the archive with an empty value or JSON null; milliseconds become seconds", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_dave");
    expect(
      conversation(await alice.put(`/v1/conversations/${id}`, "archived_at=1700000000"))
        .archived_at,
    ).toBe(1_700_000_000);
    expect(
      conversation(await alice.put(`/v1/conversations/${id}`, "archived_at=")).archived_at,
    ).toBeNull();
    await alice.put(`/v1/conversations/${id}`, { archived_at: 1_700_000_000_123 }, { as: "json" });
    expect(conversation(await alice.get(`/v1/conversations/${id}`)).archived_at).toBe(
      1_700_000_000,
    );
    expect(
      conversation(
        await alice.put(`/v1/conversations/${id}`, { archived_at: null }, { as: "json" }),
      ).archived_at,
    ).toBeNull();
    invalid(await alice.put(`/v1/conversations/${id}`, "archived_at=yesterday"), "archived_at");
    invalid(await alice.put(`/v1/conversations/${id}`, "archived_at=-5"), "archived_at");
    invalid(await alice.put(`/v1/conversations/${id}`, "is_pinned=yes"), "is_pinned");
  });

  it("pins a message of the conversation for everyone; unpins with an empty value", async () => {
    const [alice, carol] = [t.as("alice"), t.as("carol")];
    const id = await groupConversation(alice, "grp_design");
    const note = await sendMessage(carol, id, "pin me");
    const pinned = conversation(
      await alice.put(`/v1/conversations/${id}`, { pinned_message_id: note.id }),
    );
    expect(pinned.pinned_message_id).toBe(note.id);
    expect(conversation(await carol.get(`/v1/conversations/${id}`)).pinned_message_id).toBe(
      note.id,
    );
    expect(
      conversation(await alice.put(`/v1/conversations/${id}`, "pinned_message_id="))
        .pinned_message_id,
    ).toBeNull();
    await alice.put(`/v1/conversations/${id}`, { pinned_message_id: note.id });
    expect(
      conversation(
        await carol.put(`/v1/conversations/${id}`, { pinned_message_id: null }, { as: "json" }),
      ).pinned_message_id,
    ).toBeNull();
  });

  it("rejects pinning a message of another conversation or an unknown one", async () => {
    const alice = t.as("alice");
    const design = await groupConversation(alice, "grp_design");
    const launch = await groupConversation(alice, "grp_launch");
    const elsewhere = await sendMessage(alice, launch, "x");
    invalid(
      await alice.put(`/v1/conversations/${design}`, { pinned_message_id: elsewhere.id }),
      "pinned_message_id",
    );
    invalid(
      await alice.put(`/v1/conversations/${design}`, { pinned_message_id: "msg_nope" }),
      "pinned_message_id",
    );
  });

  it("unpins a message when it is deleted", async () => {
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_launch");
    const note = await sendMessage(alice, id, "temporary");
    await alice.put(`/v1/conversations/${id}`, { pinned_message_id: note.id });
    deleted(await alice.del(`/v1/messages/${note.id}`), note.id);
    expect(
      conversation(await t.as("bob").get(`/v1/conversations/${id}`)).pinned_message_id,
    ).toBeNull();
  });
});

describe("DELETE /v1/conversations/:id", () => {
  const t = useServer();

  it("deletes the conversation with its messages, reactions and attachments for every member", async () => {
    const [alice, frank] = [t.as("alice"), t.as("frank")];
    const id = await contactConversation(alice, "ct_frank");
    const sent = await sendMessage(alice, id, "with a file", {
      attachments: [{ file_url: "https://files.example.com/a.pdf" }],
    });
    await frank.put(`/v1/messages/${sent.id}`, { reactions: { heart: ["frank"] } });
    const old = messagePage(
      await alice.get("/v1/messages", { conversation_id: id, limit: 100 }),
    ).data;
    expect(old.length).toBeGreaterThan(1);

    deleted(await frank.del(`/v1/conversations/${id}`), id);

    for (const user of [alice, frank]) {
      failure(await user.get(`/v1/conversations/${id}`), 404, "not_found");
      const list = conversationPage(await user.get("/v1/conversations", { limit: 100 })).data;
      expect(list.map((c) => c.id)).not.toContain(id);
      for (const m of old) failure(await user.get(`/v1/messages/${m.id}`), 404, "not_found");
      const recent = messagePage(await user.get("/v1/messages", { limit: 100 })).data;
      expect(recent.some((m) => m.conversation_id === id)).toBe(false);
    }
    failure(await alice.del(`/v1/conversations/${id}`), 404, "not_found");
    const fresh = await contactConversation(alice, "ct_frank");
    expect(fresh).not.toBe(id);
    expect(messagePage(await alice.get("/v1/messages", { conversation_id: fresh })).data).toEqual(
      [],
    );
  });

  it("refuses a member's delete of a group's conversation: 403, and it stays for everyone", async () => {
    const [alice, bob] = [t.as("alice"), t.as("bob")];
    const id = await groupConversation(bob, "grp_oncall");
    const sent = await sendMessage(alice, id, "stays");

    const refused = failure(await bob.del(`/v1/conversations/${id}`), 403, "forbidden");
    expect(refused.message).toMatch(/archive it to hide it for you/);
    expect(refused.message).toMatch(/parley groups/);

    for (const user of [alice, bob]) {
      expect(conversation(await user.get(`/v1/conversations/${id}`)).id).toBe(id);
      expect(message(await user.get(`/v1/messages/${sent.id}`)).message).toBe("stays");
    }
    // Archiving is the way to hide it, for the one who asks only.
    await bob.put(`/v1/conversations/${id}`, { archived_at: 1_700_000_000 }, { as: "json" });
    expect(conversation(await bob.get(`/v1/conversations/${id}`)).archived_at).not.toBeNull();
    expect(conversation(await alice.get(`/v1/conversations/${id}`)).archived_at).toBeNull();
  });
});
