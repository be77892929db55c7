// Reactions: of each name's list sent, only whether the requester is in it counts (they
// react only as themselves), and names keep the order in which they were first used.
import { describe, expect, it } from "vitest";
import { groupConversation, invalid, message, sendMessage, useServer } from "./helpers.ts";

describe("reactions", () => {
  const t = useServer();

  async function fresh() {
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_design");
    return (await sendMessage(alice, id, "react to me")).id;
  }

  it("adds and removes the requester's reaction, keeping names in first-use order", async () => {
    const [alice, bob, carol] = [t.as("alice"), t.as("bob"), t.as("carol")];
    const id = await fresh();
    let m = message(await bob.put(`/v1/messages/${id}`, "reactions[thumbsup][]=bob"));
    expect(m.reactions).toEqual([{ thumbsup: ["bob"] }]);
    // A reaction is not an edit: updated_at stays null (see routes/messages.ts).
    expect(m.updated_at).toBeNull();
    m = message(
      await carol.put(`/v1/messages/${id}`, "reactions[heart][]=carol&reactions[%2B1][]=carol"),
    );
    expect(m.reactions).toEqual([{ thumbsup: ["bob"] }, { heart: ["carol"] }, { "+1": ["carol"] }]);
    m = message(
      await alice.put(
        `/v1/messages/${id}`,
        "reactions[thumbsup][]=bob&reactions[thumbsup][]=alice",
      ),
    );
    expect(m.reactions).toEqual([
      { thumbsup: ["bob", "alice"] },
      { heart: ["carol"] },
      { "+1": ["carol"] },
    ]);
    m = message(await carol.put(`/v1/messages/${id}`, "reactions[heart]="));
    expect(m.reactions).toEqual([{ thumbsup: ["bob", "alice"] }, { "+1": ["carol"] }]);
    m = message(await carol.put(`/v1/messages/${id}`, "reactions[heart][]=carol"));
    expect(m.reactions).toEqual([
      { thumbsup: ["bob", "alice"] },
      { "+1": ["carol"] },
      { heart: ["carol"] },
    ]);
    m = message(await bob.put(`/v1/messages/${id}`, "reactions[thumbsup]="));
    expect(m.reactions).toEqual([
      { thumbsup: ["alice"] },
      { "+1": ["carol"] },
      { heart: ["carol"] },
    ]);
    expect(message(await t.as("erin").get(`/v1/messages/${id}`)).reactions).toEqual(m.reactions);
  });

  it("lets a member react only as themselves: other names neither add nor remove", async () => {
    const [alice, bob, carol] = [t.as("alice"), t.as("bob"), t.as("carol")];
    const id = await fresh();
    message(await alice.put(`/v1/messages/${id}`, "reactions[heart][]=alice"));
    message(await carol.put(`/v1/messages/${id}`, "reactions[joy][]=carol"));
    // bob adds alice and removes carol: nothing changes but his own (not there: nothing).
    let m = message(
      await bob.put(
        `/v1/messages/${id}`,
        { reactions: { heart: [], joy: ["alice"], tada: ["alice", "carol"] } },
        { as: "json" },
      ),
    );
    expect(m.reactions).toEqual([{ heart: ["alice"] }, { joy: ["carol"] }]);
    m = message(
      await bob.put(`/v1/messages/${id}`, { reactions: { heart: null } }, { as: "json" }),
    );
    expect(m.reactions).toEqual([{ heart: ["alice"] }, { joy: ["carol"] }]);
    // A stale list (without alice) that adds bob loses nobody.
    m = message(await bob.put(`/v1/messages/${id}`, "reactions[heart][]=bob"));
    expect(m.reactions).toEqual([{ heart: ["alice", "bob"] }, { joy: ["carol"] }]);
    // The client's toggle (the full list without you) takes only you off.
    m = message(await alice.put(`/v1/messages/${id}`, "reactions[heart][]=bob"));
    expect(m.reactions).toEqual([{ heart: ["bob"] }, { joy: ["carol"] }]);
  });

  it("accepts the response's own shape and drops duplicates", async () => {
    const id = await fresh();
    const m = message(
      await t
        .as("erin")
        .put(
          `/v1/messages/${id}`,
          { reactions: [{ tada: ["erin", "erin", "bob"] }, { eyes: ["carol"] }] },
          { as: "json" },
        ),
    );
    expect(m.reactions).toEqual([{ tada: ["erin"] }]);
  });

  it("rejects bad names, and ignores users who are not members", async () => {
    const alice = t.as("alice");
    const id = await fresh();
    invalid(
      await alice.put(`/v1/messages/${id}`, "reactions[Thumbs Up][]=alice"),
      "reactions[Thumbs Up]",
    );
    invalid(
      await alice.put(`/v1/messages/${id}`, `reactions[${"x".repeat(33)}][]=alice`),
      `reactions[${"x".repeat(33)}]`,
    );
    message(await alice.put(`/v1/messages/${id}`, "reactions[heart][]=dave"));
    message(await alice.put(`/v1/messages/${id}`, "reactions[heart][]=nobody"));
    invalid(await alice.put(`/v1/messages/${id}`, "reactions=heart"), "reactions");
    expect(message(await alice.get(`/v1/messages/${id}`)).reactions).toEqual([]);
  });
});
