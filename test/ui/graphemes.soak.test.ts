// Every assigned plane's code points, beside each kind of neighbour that joins:
// src/ui/text/graphemes.ts splits as ICU does (test/ui/graphemes.test.ts checks the blocks
// where graphemes join). Planes 3 to 13, almost all unassigned, every 61st.
import { expect, it } from "vitest";
import { codePoints, disagreements } from "./graphemes-icu.ts";

it("agrees with ICU for every code point beside joiners", () => {
  const found = [];
  for (const c of codePoints(0, 0x2ffff)) found.push(...disagreements(c));
  for (const c of codePoints(0x30000, 0xdffff, 61)) found.push(...disagreements(c));
  for (const c of codePoints(0xe0000, 0x10ffff)) found.push(...disagreements(c));
  expect(found).toEqual([]);
}, 300_000);
