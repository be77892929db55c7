// Cursor paging over a list endpoint (spec 4.1): one page after the other, and the rule that
// keeps a server that repeats itself from making the client loop. Both the page iterators
// here and the screen's infinite lists (ui/queries) ask `nextCursor` for the next cursor.
import { invalidResponse } from "./errors.ts";
import type { ListMessagesParams, Page } from "./schema.ts";

export type Cursors = Pick<ListMessagesParams, "starting_after" | "ending_before">;

/**
 * The cursor for the page after one whose edge item is `edge`, or undefined: at the end
 * (`has_more` false, or an empty page), or when that cursor was asked for already (`asked`).
 * A server that ignores the cursor, or sends `has_more: true` with the same last id
 * forever, would otherwise be asked for the same page without end.
 */
export function nextCursor(
  page: Pick<Page<unknown>, "has_more">,
  edge: { id: string } | undefined,
  asked: readonly unknown[],
): string | undefined {
  if (!page.has_more || edge === undefined) return undefined;
  return asked.includes(edge.id) ? undefined : edge.id;
}

/** The most items kept from one page beyond what its `limit` asked for. */
export const MAX_PAGE_ITEMS = 1000;

/**
 * A page (as parsed JSON, before it is read with its schema) with at most `keep` items: a
 * server that answers with a million conversations is cut, not read whole. The cut page
 * says `has_more`, so the next page starts after the last item kept. `cut` is how many
 * were dropped.
 */
export function cutPage(json: unknown, keep: number): { json: unknown; cut: number } {
  if (typeof json !== "object" || json === null) return { json, cut: 0 };
  const { data } = json as { data?: unknown };
  if (!Array.isArray(data) || data.length <= keep) return { json, cut: 0 };
  return { json: { ...json, data: data.slice(0, keep), has_more: true }, cut: data.length - keep };
}

/**
 * Pages one after the other: older ones with `starting_after`, or newer ones when started with
 * `ending_before`. A server that sends the same page twice (it ignores the cursor) is an
 * `invalid_response`, not an endless loop.
 */
export function pager<P extends Cursors, T extends { id: string }>(
  list: (params: P) => Promise<Page<T>>,
) {
  return async function* pages(params: P): AsyncGenerator<Page<T>, void, undefined> {
    const backwards = params.ending_before !== undefined && params.starting_after === undefined;
    const asked: (string | undefined)[] = [
      backwards ? params.ending_before : params.starting_after,
    ];
    let current = params;
    for (;;) {
      const page = await list(current);
      yield page;
      const edge = backwards ? page.data[0] : page.data[page.data.length - 1];
      const cursor = nextCursor(page, edge, asked);
      if (cursor === undefined) {
        if (!page.has_more || edge === undefined) return;
        throw invalidResponse(
          200,
          `The server sent the same page twice; it seems to ignore ${backwards ? "ending_before" : "starting_after"}.`,
        );
      }
      asked.push(cursor);
      current = backwards
        ? { ...current, ending_before: cursor }
        : { ...current, starting_after: cursor };
    }
  };
}
