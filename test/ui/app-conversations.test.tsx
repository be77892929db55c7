import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, selectRow, sidebarNames } from "./helpers.ts";

const each = harnessEachTest();

/**
 * alice's client with `row` selected in the list and D pressed, once it asks `question`;
 * her API, and that conversation.
 */
async function askedToDelete(row: string, question: string) {
  const harness = await each.start();
  const alice = apiFor(harness.server);
  const conversation = await conversationWith(alice, row.replace(/^#/, ""));
  await harness.waitFor((s) => s.includes(row), "the list");
  await selectRow(harness, row);
  await harness.press("D");
  await harness.waitFor((s) => s.includes(question), `the question: ${question}`);
  return { harness, alice, conversation };
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
    // a on #team: gone from the list shown, and the server's confirmation said.
    const pressA = async (confirmation: string) => {
      await selectRow(harness, "#team");
      await harness.press("a");
      await harness.waitFor(
        (s) => !sidebarNames(s).includes("#team") && s.includes(confirmation),
        `#team gone from the list, and "${confirmation}"`,
      );
    };
    await pressA("✓ Archived #team.");
    expect((await conversationWith(alice, "team")).archived_at).not.toBeNull();
    await harness.press("4");
    await harness.waitFor((s) => sidebarNames(s).includes("#team"), "#team in Archived");
    await pressA("✓ Restored #team.");
    expect((await conversationWith(alice, "team")).archived_at).toBeNull();
    await harness.press("2");
    await harness.waitFor(
      (s) => sidebarNames(s).includes("#team") && sidebarNames(s).includes("bob"),
      "Pinned",
    );
  });

  it("deletes a contact conversation, for both, only after y", async () => {
    const asked = await askedToDelete(
      "carol",
      "Delete the conversation with carol and all its messages, for both of you?",
    );
    const { harness, alice, conversation: withCarol } = asked;
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => s.includes("Kept."), "kept");
    expect((await alice.conversations.get(withCarol.id)).id).toBe(withCarol.id);
    await harness.press("D", "y");
    // Out of the list as the delete is queued; "Deleted carol." once the server has it.
    await harness.waitFor(
      (s) => !sidebarNames(s).includes("carol") && s.includes("Deleted carol."),
      "carol gone",
    );
    await expect(alice.conversations.get(withCarol.id)).rejects.toMatchObject({ status: 404 });
    const carol = apiFor(harness.server, 2);
    await expect(carol.conversations.get(withCarol.id)).rejects.toMatchObject({ status: 404 });
  });

  it("says a group is the operator's and offers to archive it, for you alone", async () => {
    const asked = await askedToDelete(
      "#team",
      "#team is a group: it is the server operator's, not yours to delete. Archive it for you?",
    );
    const { harness, alice, conversation: team } = asked;
    const bob = apiFor(harness.server, 1);
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
