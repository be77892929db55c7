// Cursor paging over a list endpoint (spec 4.1): one page after the other.
import { invalidResponse } from "./errors.ts";
import type { ListMessagesParams, Page } from "./schema.ts";

export type Cursors = Pick<ListMessagesParams, "starting_after" | "ending_before">;

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
    const seen = new Set<string>();
    let current = params;
    for (;;) {
      const page = await list(current);
      yield page;
      const edge = backwards ? page.data[0] : page.data[page.data.length - 1];
      if (!page.has_more || edge === undefined) return;
      if (seen.has(edge.id)) {
        throw invalidResponse(
          200,
          `The server sent the same page twice; it seems to ignore ${backwards ? "ending_before" : "starting_after"}.`,
        );
      }
      seen.add(edge.id);
      current = backwards
        ? { ...current, ending_before: edge.id }
        : { ...current, starting_after: edge.id };
    }
  };
}
