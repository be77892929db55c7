// Cursor pagination shared by both lists: `starting_after` / `ending_before` name an item.

import { DEFAULT_LIMIT } from "../api/schema.ts";
import type { z } from "../zod.ts";
import { invalid } from "./errors.ts";
import { id, limit } from "./params.ts";
import type { Cursor } from "./store/store.ts";
import type { PageJson } from "./wire.ts";

export const pageParams = {
  limit: limit.default(DEFAULT_LIMIT),
  starting_after: id.optional(),
  ending_before: id.optional(),
};

export type PageParams = z.output<z.ZodObject<typeof pageParams>>;

export type PageCursors = { after?: Cursor; before?: Cursor };

/** Looks the cursor item up with `find`; an id that is not in the list is a 400. */
export async function cursors(
  params: PageParams,
  find: (id: string) => Promise<Cursor | undefined>,
): Promise<PageCursors> {
  const { starting_after: after, ending_before: before } = params;
  if (after !== undefined && before !== undefined) {
    throw invalid("ending_before", "Send starting_after or ending_before, not both.");
  }
  const name = after !== undefined ? "starting_after" : "ending_before";
  const cursorId = after ?? before;
  if (cursorId === undefined) return {};
  const cursor = await find(cursorId);
  if (!cursor) {
    throw invalid(
      name,
      `The parameter "${name}" names "${cursorId}", which is not an item of this list. Use an id from a page you were given.`,
    );
  }
  return after !== undefined ? { after: cursor } : { before: cursor };
}

/**
 * `items` were fetched with `limit + 1` to learn whether there is more. Going forward the
 * extra item is the last; going back (`ending_before`) it is the first, furthest from the cursor.
 */
export function toPage<T>(items: T[], limit: number, page: PageCursors): PageJson<T> {
  const hasMore = items.length > limit;
  if (!hasMore) return { has_more: false, data: items };
  return { has_more: true, data: page.before ? items.slice(1) : items.slice(0, limit) };
}

/** The most a page of messages weighs as JSON: half of what the client reads of one answer. */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/**
 * The page as JSON, cut to fewer items than asked for (with `has_more`) where they would
 * weigh more than `maxBytes`; at least one item stays. Kept are the items nearest the
 * cursor: the first going forward, the last going back (`ending_before`).
 */
export function pageJson<T>(page: PageJson<T>, back: boolean, maxBytes = MAX_PAGE_BYTES): string {
  const text = JSON.stringify(page);
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const items = back ? [...page.data].reverse() : page.data;
  let kept = 0;
  let bytes = 64;
  for (const item of items) {
    bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
    if (kept > 0 && bytes > maxBytes) break;
    kept++;
  }
  const data = back ? page.data.slice(page.data.length - kept) : page.data.slice(0, kept);
  return JSON.stringify({ has_more: true, data });
}
