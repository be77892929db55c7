// Structural sharing of the query cache by id (src/ui/queries/share-by-id.ts): what is equal
// keeps its identity, whatever its index, and what changed is new.
import { replaceEqualDeep } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { shareById } from "../../src/ui/queries/share-by-id.ts";

const message = (id: string, text = `text ${id}`) => ({
  id,
  message: text,
  contact: { id: "ct_bob", username: "bob" },
  reactions: {} as Record<string, string[]>,
});

describe("shareById", () => {
  it("keeps every message of a page that shifted by one, and the new one is new", () => {
    const old = { data: [message("m3"), message("m2"), message("m1")], has_more: false };
    const arrived = message("m4");
    const next = { data: [arrived, ...old.data.map((m) => ({ ...m }))], has_more: false };
    const shared = shareById(old, next);
    expect(shared).toEqual(next);
    expect(shared.data[0]).toBe(arrived);
    for (let i = 1; i < 4; i++) expect(shared.data[i]).toBe(old.data[i - 1]);
  });

  it("gives the old object back when everything is equal, at any depth", () => {
    const old = { pages: [{ data: [message("m2"), message("m1")] }], pageParams: [undefined] };
    expect(shareById(old, structuredClone(old))).toBe(old);
  });

  it("makes new only what changed: an edited message and the lists holding it", () => {
    const old = { data: [message("m2"), message("m1")] };
    const edited = { data: [message("m2"), message("m1", "edited")] };
    const shared = shareById(old, edited);
    expect(shared).not.toBe(old);
    expect(shared.data[0]).toBe(old.data[0]);
    expect(shared.data[1]).not.toBe(old.data[1]);
    expect(shared.data[1]!.contact).toBe(old.data[1]!.contact);
    expect(shared.data[1]!.message).toBe("edited");
  });

  it("sees a field gone or added, and a list shortened", () => {
    const old = { a: 1, b: 2, list: [message("m1"), message("m2")] };
    expect(shareById(old, { a: 1, list: old.list })).toEqual({ a: 1, list: old.list });
    expect(shareById(old, { ...old, c: 3 })).toEqual({ ...old, c: 3 });
    const shorter = shareById(old, { ...old, list: [message("m1")] });
    expect(shorter.list).toEqual([message("m1")]);
    expect(shorter.list[0]).toBe(old.list[0]);
  });

  it("pairs lists without ids by index, as TanStack's own does", () => {
    const old = { pageParams: [undefined, "m5"], names: ["a", "b"] };
    const next = { pageParams: [undefined, "m5"], names: ["a", "c"] };
    const shared = shareById(old, next);
    expect(shared.pageParams).toBe(old.pageParams);
    expect(shared).toEqual(replaceEqualDeep(old, next));
  });
});
