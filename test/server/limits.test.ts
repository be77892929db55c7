// What one member may put into a message everyone in the conversation reads (docs/api.md,
// "Limits"): each limit is a 400 that names it, and a page of the largest messages allowed
// is still one answer the client accepts.
import { describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES } from "../../src/api/client.ts";
import {
  MAX_ATTACHMENTS,
  MAX_REACTION_NAMES,
  MAX_STORED_MESSAGE_BYTES,
} from "../../src/api/schema.ts";
import { MAX_PAGE_BYTES } from "../../src/server/pagination.ts";
import {
  groupConversation,
  invalid,
  message,
  messagePage,
  sendMessage,
  useServer,
} from "./helpers.ts";

const names = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `r${from + i}`);
const reactionsOf = (user: string, list: string[]) =>
  Object.fromEntries(list.map((name) => [name, [user]]));
const file = (i: number, fields: Record<string, unknown> = {}) => ({
  file_url: `https://files.example/${i}.png`,
  ...fields,
});
/** A URL of 2,000 characters that takes twice that in UTF-8. */
const wideUrl = (i: number) => `https://files.example/${"é".repeat(1990)}/${i}.png`;

describe("limits on one message", () => {
  const t = useServer({ rateLimit: false });

  async function fresh(text = "limits") {
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_design");
    return await sendMessage(alice, id, text);
  }

  it(`holds ${MAX_REACTION_NAMES} distinct reaction names, refusing one more`, async () => {
    const bob = t.as("bob");
    const carol = t.as("carol");
    const { id } = await fresh();
    const full = message(
      await bob.put(
        `/v1/messages/${id}`,
        { reactions: reactionsOf("bob", names(MAX_REACTION_NAMES)) },
        { as: "json" },
      ),
    );
    expect(full.reactions.map((r) => Object.keys(r)[0])).toEqual(names(MAX_REACTION_NAMES));
    const more = invalid(
      await carol.put(`/v1/messages/${id}`, "reactions[another][]=carol"),
      "reactions",
    );
    expect(more.message).toContain(String(MAX_REACTION_NAMES));
    // Joining a name the message has, and taking one off, still work at the limit.
    const joined = message(await carol.put(`/v1/messages/${id}`, "reactions[r3][]=carol"));
    expect(joined.reactions[3]).toEqual({ r3: ["bob", "carol"] });
    const off = message(await bob.put(`/v1/messages/${id}`, "reactions[r0]="));
    expect(off.reactions).toHaveLength(MAX_REACTION_NAMES - 1);
    // With room for one again, the new name comes last.
    const added = message(await carol.put(`/v1/messages/${id}`, "reactions[another][]=carol"));
    expect(added.reactions.at(-1)).toEqual({ another: ["carol"] });
  });

  it("refuses a request naming thousands of reactions before it touches the message", async () => {
    const { id } = await fresh();
    const reply = await t
      .as("bob")
      .put(`/v1/messages/${id}`, { reactions: reactionsOf("bob", names(4000)) }, { as: "json" });
    invalid(reply, "reactions");
    const after = message(await t.as("alice").get(`/v1/messages/${id}`));
    expect(after.reactions).toEqual([]);
  });

  it(`holds ${MAX_ATTACHMENTS} attachments, sent at once or added later`, async () => {
    const alice = t.as("alice");
    const { conversation_id } = await fresh();
    const eleven = Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => file(i));
    invalid(
      await alice.post("/v1/messages", { conversation_id, message: "files", attachments: eleven }),
      "attachments",
    );
    const sent = message(
      await alice.post("/v1/messages", {
        conversation_id,
        message: "files",
        attachments: eleven.slice(0, MAX_ATTACHMENTS - 1),
      }),
    );
    message(await alice.put(`/v1/messages/${sent.id}`, { attachments: [file(98)] }));
    const over = invalid(
      await alice.put(`/v1/messages/${sent.id}`, { attachments: [file(99)] }),
      "attachments",
    );
    expect(over.message).toContain(`at most ${MAX_ATTACHMENTS} attachments`);
    expect(message(await alice.get(`/v1/messages/${sent.id}`)).attachments).toHaveLength(
      MAX_ATTACHMENTS,
    );
  });

  it.each([
    ["file_url", `https://files.example/${"a".repeat(2048)}`, "2048"],
    ["filename", "n".repeat(256), "255"],
    ["file_type", `image/${"x".repeat(122)}`, "127"],
  ])("limits an attachment's %s", async (field, value, limit) => {
    const { conversation_id } = await fresh();
    const attachments = [field === "file_url" ? { file_url: value } : file(1, { [field]: value })];
    const reply = await t
      .as("alice")
      .post("/v1/messages", { conversation_id, message: "x", attachments }, { as: "json" });
    const body = invalid(reply, `attachments[0][${field}]`);
    expect(body.message).toContain(limit);
  });

  it("limits what a message takes as stored, on a send and on an edit", async () => {
    const alice = t.as("alice");
    const { conversation_id } = await fresh();
    const wide = Array.from({ length: MAX_ATTACHMENTS }, (_, i) => ({ file_url: wideUrl(i) }));
    const longText = "😀".repeat(10_000);
    const tooMuch = invalid(
      await alice.post(
        "/v1/messages",
        { conversation_id, message: longText, attachments: wide },
        { as: "json" },
      ),
      "attachments",
    );
    expect(tooMuch.message).toContain(`${MAX_STORED_MESSAGE_BYTES / 1024} KiB`);
    const sent = message(
      await alice.post(
        "/v1/messages",
        { conversation_id, message: "short", attachments: wide },
        { as: "json" },
      ),
    );
    invalid(
      await alice.put(`/v1/messages/${sent.id}`, { message: longText }, { as: "json" }),
      "message",
    );
    expect(message(await alice.get(`/v1/messages/${sent.id}`)).message).toBe("short");
  });
});

describe("a page of the largest messages", () => {
  const t = useServer({ rateLimit: false });

  it("is cut to what fits in a page, with the rest on the next", async () => {
    const alice = t.as("alice");
    const conversation_id = await groupConversation(alice, "grp_design");
    // Messages near the most a message may take (some 60 KiB each): 72 of them are past
    // what one page may weigh.
    const wide = Array.from({ length: 5 }, (_, i) => ({ file_url: wideUrl(i) }));
    const count = 72;
    const sent: string[] = [];
    for (let i = 0; i < count; i++) {
      const m = message(
        await alice.post(
          "/v1/messages",
          { conversation_id, message: `big ${i} ${"😀".repeat(9990)}`, attachments: wide },
          { as: "json" },
        ),
      );
      sent.push(m.id);
    }
    const first = await alice.get("/v1/messages", { conversation_id, limit: 100 });
    const firstBytes = Number(first.headers.get("content-length"));
    expect(firstBytes).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    expect(MAX_PAGE_BYTES).toBeLessThan(MAX_ANSWER_BYTES);
    const page = messagePage(first);
    expect(page.has_more).toBe(true);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.length).toBeLessThan(count);
    const rest = messagePage(
      await alice.get("/v1/messages", {
        conversation_id,
        limit: 100,
        starting_after: page.data.at(-1)!.id,
      }),
    );
    const ids = [...page.data, ...rest.data].map((m) => m.id).filter((id) => sent.includes(id));
    expect(ids).toEqual([...sent].reverse());
    // Going back from the oldest, the page keeps the messages next to the cursor.
    const back = messagePage(
      await alice.get("/v1/messages", { conversation_id, limit: 100, ending_before: sent[0] }),
    );
    expect(back.has_more).toBe(true);
    expect(back.data.at(-1)!.id).toBe(sent[1]);
  }, 120_000);
});
