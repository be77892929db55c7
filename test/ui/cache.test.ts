import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { Message, Page } from "../../src/api/schema.ts";
import { toggledReactors, withReactors } from "../../src/ui/model/reactions.ts";
import {
  chronological,
  HISTORY_PAGES_KEPT,
  type MessagePages,
  mergeLatest,
  oldestId,
  prependMessage,
  reachesNewest,
} from "../../src/ui/queries/cache.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { trimRestoredHistories } from "../../src/ui/queries/restore.ts";

function msg(n: number, extra: Partial<Message> = {}): Message {
  return {
    id: `msg_${String(n).padStart(4, "0")}`,
    conversation_id: "conv_1",
    contact: {
      id: "ct_b",
      username: "bob",
      phone_number: null,
      avatar_url: null,
      last_active_at: null,
      created_at: 0,
    },
    message: `m${n}`,
    reactions: [],
    attachments: [],
    read_at: null,
    created_at: 1000 + n,
    updated_at: null,
    ...extra,
  };
}

/** Newest first, as the API lists them. */
function page(from: number, to: number, has_more: boolean): Page<Message> {
  const data: Message[] = [];
  for (let n = to; n >= from; n--) data.push(msg(n));
  return { has_more, data };
}

function ids(data: MessagePages | undefined) {
  return chronological(data).map((m) => Number(m.message.slice(1)));
}

describe("mergeLatest", () => {
  const loaded: MessagePages = {
    pages: [page(51, 100, true), page(1, 50, true)],
    pageParams: [undefined, "msg_0051"],
  };

  it("adds new messages and keeps older loaded pages and their cursors", () => {
    const merged = mergeLatest(loaded, page(53, 102, true));
    expect(ids(merged)).toEqual(Array.from({ length: 102 }, (_, i) => i + 1));
    expect(merged.pageParams).toEqual(loaded.pageParams);
    expect(oldestId(merged.pages)).toBe("msg_0001");
  });

  it("drops messages deleted on the server and shows edits", () => {
    const latest = page(51, 100, true);
    latest.data = latest.data
      .filter((m) => m.message !== "m99")
      .map((m) => (m.message === "m98" ? { ...m, message: "edited" } : m));
    const merged = mergeLatest(loaded, latest);
    const all = chronological(merged);
    expect(all.some((m) => m.message === "m99")).toBe(false);
    expect(all.find((m) => m.id === "msg_0098")?.message).toBe("edited");
    expect(all).toHaveLength(99);
  });

  it("starts over when more arrived than one page holds (no overlap)", () => {
    const merged = mergeLatest(loaded, page(200, 249, true));
    expect(ids(merged)).toEqual(Array.from({ length: 50 }, (_, i) => i + 200));
    expect(merged.pageParams).toEqual([undefined]);
  });

  it("replaces everything when the newest page is the whole conversation", () => {
    const merged = mergeLatest(loaded, page(1, 5, false));
    expect(ids(merged)).toEqual([1, 2, 3, 4, 5]);
  });

  it("prepends a sent message once, even if the poll already brought it", () => {
    const once = prependMessage(loaded, msg(101));
    const twice = prependMessage(once, msg(101));
    expect(chronological(twice).filter((m) => m.id === "msg_0101")).toHaveLength(1);
  });
});

describe("reactions", () => {
  it("toggles your name in and out of a reaction's list, keeping order of names", () => {
    const m = msg(1, { reactions: [{ thumbsup: ["bob"] }, { heart: ["alice"] }] });
    expect(toggledReactors(m, "thumbsup", "alice")).toEqual(["bob", "alice"]);
    expect(toggledReactors(m, "heart", "alice")).toEqual([]);
    const removed = withReactors(m, "heart", []);
    expect(removed.reactions).toEqual([{ thumbsup: ["bob"] }]);
    const added = withReactors(m, "tada", ["alice"]);
    expect(added.reactions.map((r) => Object.keys(r)[0])).toEqual(["thumbsup", "heart", "tada"]);
  });
});

describe("the history window", () => {
  const older = (from: number) => page(from, from + 9, true);

  it("reaches the newest while its first page was asked for without a cursor", () => {
    const pages = [page(91, 100, true), older(81)];
    expect(reachesNewest({ pages, pageParams: [undefined, "msg_0091"] })).toBe(true);
    // The newest pages dropped: the first page now starts after a message.
    expect(reachesNewest({ pages: [older(81)], pageParams: ["msg_0091"] })).toBe(false);
    // Fetched again as newer: the newest when the server says nothing is newer.
    const newer = { newerThan: "msg_0090" };
    expect(reachesNewest({ pages: [page(91, 100, false)], pageParams: [newer] })).toBe(true);
    expect(reachesNewest({ pages: [page(91, 100, true)], pageParams: [newer] })).toBe(false);
  });

  it("takes no sent message into a window far back (it comes with the newer pages)", () => {
    const far: MessagePages = { pages: [older(81)], pageParams: ["msg_0091"] };
    expect(prependMessage(far, msg(101))).toBe(far);
  });

  it("cuts a history kept by an earlier parley to the window's newest pages", () => {
    const queryClient = new QueryClient();
    const count = HISTORY_PAGES_KEPT + 8;
    const pages = Array.from({ length: count }, (_, i) => older(1000 - 10 * (i + 1)));
    const pageParams = pages.map((_, i) => (i === 0 ? undefined : `msg_${i}`));
    queryClient.setQueryData(keys.messages.list("conv_1"), { pages, pageParams });
    trimRestoredHistories(queryClient);
    const kept = queryClient.getQueryData<MessagePages>(keys.messages.list("conv_1"))!;
    expect(kept.pages).toEqual(pages.slice(0, HISTORY_PAGES_KEPT));
    expect(kept.pageParams).toEqual(pageParams.slice(0, HISTORY_PAGES_KEPT));
  });
});
