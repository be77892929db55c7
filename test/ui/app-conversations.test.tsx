import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, selectRow, sidebarNames } from "./helpers.ts";

const each = harnessEachTest();

/** Selects `row` in the list once it shows, presses D, and waits for the question it asks. */
async function pressDOn(h: Harness, row: string, question: string) {
  await h.waitFor((s) => s.includes(row), "the list");
  await selectRow(h, row);
  await h.press("D");
  await h.waitFor((s) => s.includes(question), `the question: ${question}`);
}

describe("the conversation list", () => {
  it("lists conversations pinned first, with previews, unread counts and the connection state", async () => {
    const harness = await each.start();
    const screen = await harness.waitFor(
      (s) => s.includes("● online") && /│▸📌 bob/u.test(s) && /●\d/.test(s),
      "the list with names and unread counts",
    );
    const names = sidebarNames(screen);
    expect(names.slice(0, 2).sort()).toEqual(["#design", "bob"]);
    expect(names).toContain("#team");
    expect(names).not.toContain("#archive-2024"); // All leaves archived conversations out
    expect(screen).toMatch(/parley · alice @ 127\.0\.0\.1:\d+/);
    expect(screen).toContain("1 All");
  });

  it("pins, mutes, archives and restores a conversation, and the filters follow", async () => {
    const harness = await each.start();
    const alice = apiFor(harness.server);
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await selectRow(harness, "#team");
    await harness.press("p");
    await harness.waitFor(
      (s) => /│▸📌[^\n]*#team/u.test(s) && s.includes("✓ Pinned #team."),
      "the pin icon, and the server's confirmation",
    );
    expect((await conversationWith(alice, "team")).is_pinned).toBe(true);
    await harness.press("m");
    await harness.waitFor(
      (s) => /│▸📌🔕[^\n]*#team/u.test(s) && s.includes("✓ Muted #team."),
      "the mute icon, and the server's confirmation",
    );
    expect((await conversationWith(alice, "team")).is_muted).toBe(true);

    await harness.press("3");
    await harness.waitFor(
      (s) => sidebarNames(s).includes("#team") && !sidebarNames(s).includes("bob"),
      "Muted",
    );
    await harness.press("1");
    await harness.waitFor((s) => sidebarNames(s).includes("bob"), "All");
    await selectRow(harness, "#team");
    await harness.press("a");
    await harness.waitFor(
      (s) => !sidebarNames(s).includes("#team") && s.includes("✓ Archived #team."),
      "#team gone from All, and the server's confirmation",
    );
    expect((await conversationWith(alice, "team")).archived_at).not.toBeNull();
    await harness.press("4");
    await harness.waitFor((s) => sidebarNames(s).includes("#team"), "#team in Archived");
    await selectRow(harness, "#team");
    await harness.press("a");
    await harness.waitFor(
      (s) => !sidebarNames(s).includes("#team") && s.includes("✓ Restored #team."),
      "#team restored, and the server's confirmation",
    );
    expect((await conversationWith(alice, "team")).archived_at).toBeNull();
    await harness.press("2");
    await harness.waitFor(
      (s) => sidebarNames(s).includes("#team") && sidebarNames(s).includes("bob"),
      "Pinned",
    );
  });

  it("deletes a contact conversation, for both, only after y", async () => {
    const harness = await each.start();
    const [alice, carol] = [apiFor(harness.server), apiFor(harness.server, 2)];
    const withCarol = await conversationWith(alice, "carol");
    await pressDOn(
      harness,
      "carol",
      "Delete the conversation with carol and all its messages, for both of you?",
    );
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => s.includes("Kept."), "kept");
    expect((await alice.conversations.get(withCarol.id)).id).toBe(withCarol.id);
    await harness.press("D", "y");
    await harness.waitFor((s) => !sidebarNames(s).includes("carol"), "carol gone");
    await expect(alice.conversations.get(withCarol.id)).rejects.toMatchObject({ status: 404 });
    await expect(carol.conversations.get(withCarol.id)).rejects.toMatchObject({ status: 404 });
  });

  it("says a group is the operator's and offers to archive it, for you alone", async () => {
    const harness = await each.start();
    const [alice, bob] = [apiFor(harness.server), apiFor(harness.server, 1)];
    const team = await conversationWith(alice, "team");
    await pressDOn(
      harness,
      "#team",
      "#team is a group: it is the server operator's, not yours to delete. Archive it for you?",
    );
    expect(harness.screen()).not.toContain("Delete the conversation");
    await harness.press("y");
    await harness.waitFor(
      (s) => !sidebarNames(s).includes("#team") && s.includes("✓ Archived #team."),
      "#team archived",
    );
    expect((await alice.conversations.get(team.id)).archived_at).not.toBeNull();
    // Still there, unarchived, for the other members.
    expect((await bob.conversations.get(team.id)).archived_at).toBeNull();

    await harness.press("4");
    await selectRow(harness, "#team");
    await harness.press("D");
    await harness.waitFor(
      (s) => s.includes("not yours to delete; it is archived for you already."),
      "no offer: it is archived already",
    );
    expect((await alice.conversations.get(team.id)).id).toBe(team.id);
  });

  it("starts a conversation with a contact id, suggesting contacts seen so far", async () => {
    const server = await startServer({ port: 0, demo: true, demoConversations: false });
    each.afterTest(() => server.close());
    const harness = await each.start({ server });
    await harness.waitFor((s) => s.includes("No conversations"), "an empty list");
    await harness.press("n");
    await harness.waitFor((s) => s.includes("new conversation with:"), "the prompt");
    await harness.type("ct_dave");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("Message ct_dave") || s.includes("Message dave"),
      "the new conversation",
    );
    const list = await apiFor(server).conversations.list();
    expect(list.data.map((c) => c.contact_id)).toEqual(["ct_dave"]);
  });

  it("searches conversations by name", async () => {
    const harness = await each.start();
    await harness.waitFor((s) => s.includes("#team"), "the list");
    await harness.press("/");
    await harness.type("des");
    await harness.waitFor((s) => sidebarNames(s).join() === "#design", "only #design");
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => sidebarNames(s).includes("#team"), "the whole list back");
  });
});
