// Every infinite list on screen ends where its server repeats itself: the next cursor is
// never one already asked for (api/paging.ts's nextCursor), whatever the list.
import { describe, expect, it } from "vitest";
import { nextCursor } from "../../src/api/paging.ts";
import type { Page } from "../../src/api/schema.ts";
import { conversationListOptions, PINNED_FIRST } from "../../src/ui/queries/conversations.ts";
import { historyOptions } from "../../src/ui/queries/history.ts";
import type { Session } from "../../src/ui/screen/session.ts";

const session = {} as Session;
const page = (...ids: string[]) =>
  ({ has_more: true, data: ids.map((id) => ({ id, created_at: 1 })) }) as unknown as Page<never>;

describe("the next page of a list", () => {
  it("is asked for after the last item, once", () => {
    expect(nextCursor(page("a", "b"), { id: "b" }, [undefined])).toBe("b");
    expect(nextCursor(page("a", "b"), { id: "b" }, [undefined, "b"])).toBeUndefined();
    expect(nextCursor({ has_more: false }, { id: "b" }, [undefined])).toBeUndefined();
    expect(nextCursor(page(), undefined, [undefined])).toBeUndefined();
  });

  for (const [name, options] of [
    ["of conversations", conversationListOptions(session, PINNED_FIRST)],
    ["of a conversation's history", historyOptions(session, "conv_1")],
  ] as const) {
    it(`${name} stops when the server sends the same page again`, () => {
      const next = options.getNextPageParam as (
        last: Page<never>,
        all: Page<never>[],
        param: unknown,
        params: unknown[],
      ) => string | undefined;
      const same = page("m1", "m2");
      expect(next(same, [same], undefined, [undefined])).toBe("m2");
      expect(next(same, [same, same], "m2", [undefined, "m2"])).toBeUndefined();
    });
  }
});
