// Idempotency-Key: a retried POST returns the first result and creates nothing new.
import { describe, expect, it } from "vitest";
import {
  type Client,
  contactConversation,
  conversation,
  failure,
  invalid,
  message,
  messagePage,
  useServer,
} from "./helpers.ts";

let clock = Math.floor(Date.now() / 1000);

const keyedSend = (from: Client, id: string, text: string, headers: Record<string, string>) =>
  from.post("/v1/messages", { conversation_id: id, message: text }, { headers });

describe("Idempotency-Key", () => {
  const t = useServer({ now: () => clock });

  it("replays the first response for the same user, key and parameters", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_carol");
    const headers = { "Idempotency-Key": "draft-1" };
    const first = await alice.post(
      "/v1/messages",
      { conversation_id: id, message: "only once" },
      { headers },
    );
    const again = await alice.post("/v1/messages", `message=only+once&conversation_id=${id}`, {
      headers,
    });
    expect(message(again)).toEqual(message(first));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const json = await alice.post(
      "/v1/messages",
      { conversation_id: id, message: "only once" },
      { as: "json", headers },
    );
    expect(json.body).toEqual(first.body);
    const list = messagePage(
      await alice.get("/v1/messages", { conversation_id: id, limit: 100 }),
    ).data;
    expect(list.filter((m) => m.message === "only once")).toHaveLength(1);
  });

  it("answers 409 for the same key with other parameters", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_carol");
    const headers = { "Idempotency-Key": "draft-2" };
    message(await keyedSend(alice, id, "first", headers));
    failure(await keyedSend(alice, id, "second", headers), 409, "idempotency_conflict");
    failure(
      await alice.post("/v1/conversations", { contact_id: "ct_bob" }, { headers }),
      409,
      "idempotency_conflict",
    );
  });

  it("keeps keys apart per user, and ignores them on other methods", async () => {
    const [alice, carol] = [t.as("alice"), t.as("carol")];
    const id = await contactConversation(alice, "ct_carol");
    const headers = { "Idempotency-Key": "shared" };
    const a = message(await keyedSend(alice, id, "same", headers));
    const c = message(await keyedSend(carol, id, "same", headers));
    expect(c.id).not.toBe(a.id);
    const put1 = message(
      await alice.put(`/v1/messages/${a.id}`, { message: "edit 1" }, { headers }),
    );
    const put2 = message(
      await alice.put(`/v1/messages/${a.id}`, { message: "edit 2" }, { headers }),
    );
    expect([put1.message, put2.message]).toEqual(["edit 1", "edit 2"]);
  });

  it("does not remember failures, and forgets keys after 24 hours", async () => {
    const alice = t.as("alice");
    const id = await contactConversation(alice, "ct_carol");
    const headers = { "Idempotency-Key": "draft-3" };
    invalid(await keyedSend(alice, id, " ", headers), "message");
    const first = message(await keyedSend(alice, id, "later", headers));
    clock += 24 * 3600 - 10;
    expect(message(await keyedSend(alice, id, "later", headers)).id).toBe(first.id);
    clock += 20;
    const next = message(await keyedSend(alice, id, "later", headers));
    expect(next.id).not.toBe(first.id);
  });

  it("works for creating conversations, and rejects an over-long key", async () => {
    const dave = t.as("dave");
    const headers = { "Idempotency-Key": "conv-1" };
    const a = conversation(
      await dave.post("/v1/conversations", { contact_id: "ct_frank" }, { headers }),
    );
    const b = conversation(
      await dave.post("/v1/conversations", { contact_id: "ct_frank" }, { headers }),
    );
    expect(b).toEqual(a);
    invalid(
      await dave.post(
        "/v1/conversations",
        { contact_id: "ct_frank" },
        { headers: { "Idempotency-Key": "k".repeat(256) } },
      ),
      "Idempotency-Key",
    );
  });
});
