/** Where a page starts: the sort key and id of the item named by `starting_after` / `ending_before`. */
export type Cursor = { key: number; id: string };
