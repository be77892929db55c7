// Events into the query cache (src/ui/queries/events.ts), without a screen: what each event
// does to the lists of every filter, the open history, the inbox and the previews.
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { Conversation, Message, type Page } from "../../src/api/schema.ts";
import type { ConversationPages, MessagePages } from "../../src/ui/queries/cache.ts";
import { PINNED_FIRST, UNPINNED } from "../../src/ui/queries/conversations.ts";
import { applyEvent, applyEvents } from "../../src/ui/queries/events.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";

const ARCHIVED = { archived: true, limit: 10 };

const conversation = (id: string, extra: Record<string, unknown> = {}) =>
  Conversation.parse({ id, last_active_at: 100, created_at: 1, ...extra });
const message = (id: string, conversationId: string, at: number, text = id) =>
  Message.parse({
    id,
    conversation_id: conversationId,
    contact: { id: "ct_bob", username: "bob" },
    message: text,
    created_at: at,
  });
const pages = <T>(...data: T[]) => ({
  pages: [{ has_more: false, data }],
  pageParams: [undefined],
});
const ids = (data: ConversationPages | MessagePages | undefined) =>
  data?.pages.flatMap((p) => p.data.map((item) => item.id));

function cacheWith() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(
    keys.conversations.list(UNPINNED),
    pages(conversation("a", { last_active_at: 300 }), conversation("b", { last_active_at: 200 })),
  );
  queryClient.setQueryData(keys.conversations.list(PINNED_FIRST), pages<Conversation>());
  queryClient.setQueryData(keys.conversations.list(ARCHIVED), pages<Conversation>());
  queryClient.setQueryData(keys.messages.inbox(), [
    message("m2", "a", 300),
    message("m1", "b", 200),
  ]);
  queryClient.setQueryData<Page<Message>>(keys.messages.preview("b", 200, "m1"), {
    has_more: false,
    data: [message("m1", "b", 200)],
  });
  queryClient.setQueryData(keys.messages.list("b"), pages(message("m1", "b", 200)));
  queryClient.setQueryData<Page<Message>>(keys.messages.latest("b"), {
    has_more: false,
    data: [message("m1", "b", 200)],
  });
  return queryClient;
}

describe("events into the cache", () => {
  it("a new message: its row on top with the preview seeded, the inbox, the open history", () => {
    const queryClient = cacheWith();
    applyEvent(queryClient, { type: "message.created", message: message("m3", "b", 400) });
    const unpinned = queryClient.getQueryData<ConversationPages>(keys.conversations.list(UNPINNED));
    expect(ids(unpinned)).toEqual(["b", "a"]);
    expect(unpinned?.pages[0]?.data[0]?.last_active_at).toBe(400);
    expect(queryClient.getQueryData<Message[]>(keys.messages.inbox())?.map((m) => m.id)).toEqual([
      "m3",
      "m2",
      "m1",
    ]);
    const seeded = queryClient.getQueryData<Page<Message>>(keys.messages.preview("b", 400, "m3"));
    expect(seeded?.data.map((m) => m.id)).toEqual(["m3", "m1"]);
    const latest = queryClient.getQueryData<Page<Message>>(keys.messages.latest("b"));
    expect(latest?.data.map((m) => m.id)).toEqual(["m3", "m1"]);
    // The same event again (a replay) changes nothing more.
    applyEvent(queryClient, { type: "message.created", message: message("m3", "b", 400) });
    expect(
      queryClient.getQueryData<Page<Message>>(keys.messages.latest("b"))?.data.map((m) => m.id),
    ).toEqual(["m3", "m1"]);
  });

  it("messages.read marks the others' unread messages read wherever they show", () => {
    const queryClient = cacheWith();
    const mine = Message.parse({
      id: "m0",
      conversation_id: "b",
      contact: { id: "ct_alice", username: "alice" },
      message: "mine",
      created_at: 150,
    });
    queryClient.setQueryData(keys.messages.list("b"), pages(message("m1", "b", 200), mine));
    applyEvent(queryClient, {
      type: "messages.read",
      read: { conversation_id: "b", reader: "alice", read_at: 250 },
    });
    const history = queryClient.getQueryData<MessagePages>(keys.messages.list("b"));
    expect(history?.pages[0]?.data.map((m) => [m.id, m.read_at])).toEqual([
      ["m1", 250],
      ["m0", null],
    ]);
    const latest = queryClient.getQueryData<Page<Message>>(keys.messages.latest("b"));
    expect(latest?.data[0]?.read_at).toBe(250);
    const preview = queryClient.getQueryData<Page<Message>>(keys.messages.preview("b", 200, "m1"));
    expect(preview?.data[0]?.read_at).toBe(250);
    // Another conversation's messages are untouched.
    expect(queryClient.getQueryData<Message[]>(keys.messages.inbox())?.[0]?.read_at).toBeNull();
  });

  it("a batch of 1,000 new messages is one write per query, with pages cut", () => {
    const queryClient = cacheWith();
    let writes = 0;
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "success") writes++;
    });
    const burst = Array.from({ length: 1000 }, (_, i) => ({
      type: "message.created" as const,
      message: message(`n${i}`, "b", 400 + i),
    }));
    const before = queryClient.getQueryData<Page<Message>>(keys.messages.latest("b"))!;
    const beforeIds = before.data.map((m) => m.id);
    // One sent twice (a resumed stream) is on top once.
    applyEvents(queryClient, [...burst, burst[998]!]);
    // The batch changes its own copies in place, never the data the cache held.
    expect(before.data.map((m) => m.id)).toEqual(beforeIds);
    expect(queryClient.getQueryData<Message[]>(keys.messages.inbox())?.map((m) => m.id)).toEqual(
      ["n998", "n999", "n997"].concat(Array.from({ length: 17 }, (_, i) => `n${996 - i}`)),
    );
    // The list, the latest page, the inbox and the row's new preview: once each.
    expect(writes).toBeLessThanOrEqual(6);
    const latest = queryClient.getQueryData<Page<Message>>(keys.messages.latest("b"));
    expect(latest?.data.length).toBe(600);
    expect(latest?.data.slice(0, 2).map((m) => m.id)).toEqual(["n998", "n999"]);
    expect(latest?.has_more).toBe(true);
    const previews = queryClient.getQueryCache().findAll({ queryKey: keys.messages.previews("b") });
    expect(previews.map((q) => q.queryKey)).toEqual([keys.messages.preview("b", 1399, "n998")]);
    expect((previews[0]!.state.data as Page<Message>).data.length).toBe(500);
  });

  it("an edit and a deletion reach every place the message shows", () => {
    const queryClient = cacheWith();
    queryClient.setQueryData(keys.messages.detail("m1"), message("m1", "b", 200));
    applyEvent(queryClient, {
      type: "message.updated",
      message: message("m1", "b", 200, "edited"),
    });
    expect(queryClient.getQueryData<Message>(keys.messages.detail("m1"))?.message).toBe("edited");
    expect(
      queryClient.getQueryData<MessagePages>(keys.messages.list("b"))?.pages[0]?.data[0]?.message,
    ).toBe("edited");
    expect(queryClient.getQueryData<Message[]>(keys.messages.inbox())?.[1]?.message).toBe("edited");
    applyEvent(queryClient, {
      type: "message.deleted",
      removed: { id: "m1", conversation_id: "b" },
    });
    expect(ids(queryClient.getQueryData<MessagePages>(keys.messages.list("b")))).toEqual([]);
    expect(queryClient.getQueryData<Message[]>(keys.messages.inbox())?.map((m) => m.id)).toEqual([
      "m2",
    ]);
    expect(
      queryClient.getQueryData<Page<Message>>(keys.messages.preview("b", 200, "m1"))?.data,
    ).toEqual([]);
    expect(queryClient.getQueryData(keys.messages.detail("m1"))).toBeUndefined();
  });

  it("a conversation archived elsewhere leaves its list for the archived one", () => {
    const queryClient = cacheWith();
    applyEvent(queryClient, {
      type: "conversation.updated",
      conversation: conversation("a", { last_active_at: 300, archived_at: 500 }),
    });
    expect(ids(queryClient.getQueryData(keys.conversations.list(UNPINNED)))).toEqual(["b"]);
    expect(ids(queryClient.getQueryData(keys.conversations.list(ARCHIVED)))).toEqual(["a"]);
    // Pinned: into the pinned list, in its place by activity.
    applyEvent(queryClient, {
      type: "conversation.updated",
      conversation: conversation("b", { last_active_at: 200, is_pinned: true }),
    });
    expect(ids(queryClient.getQueryData(keys.conversations.list(PINNED_FIRST)))).toEqual(["b"]);
    expect(ids(queryClient.getQueryData(keys.conversations.list(UNPINNED)))).toEqual([]);
  });

  it("a new conversation goes where its activity puts it; a deleted one goes", () => {
    const queryClient = cacheWith();
    applyEvent(queryClient, {
      type: "conversation.created",
      conversation: conversation("c", { last_active_at: 250 }),
    });
    expect(ids(queryClient.getQueryData(keys.conversations.list(UNPINNED)))).toEqual([
      "a",
      "c",
      "b",
    ]);
    applyEvent(queryClient, {
      type: "conversation.deleted",
      removed: { id: "a", conversation_id: "a" },
    });
    expect(ids(queryClient.getQueryData(keys.conversations.list(UNPINNED)))).toEqual(["c", "b"]);
  });

  it("reset marks everything for fetching again", () => {
    const queryClient = cacheWith();
    applyEvent(queryClient, { type: "reset" });
    expect(queryClient.getQueryState(keys.messages.inbox())?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(keys.conversations.list(UNPINNED))?.isInvalidated).toBe(true);
  });
});
