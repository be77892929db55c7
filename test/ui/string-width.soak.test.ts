// Every code point Unicode assigns, one by one, measured by parley's string-width and by
// string-width: the same answer for each. Several hundred thousand inputs: a soak, run by
// `npm run test:soak` (string-width.test.ts covers emoji, sequences and text).
import { afterAll, describe, expect, it } from "vitest";
import { setWidthMode } from "../../src/ui/ink/string-width.ts";
import { differences } from "./string-width-differences.ts";

/** Planes 0 to 3 (all that Unicode assigns but tags and private use), then plane 14's tags and selectors, and samples of the private-use planes. */
function* everyCodePoint(): Generator<string> {
  const ranges: [number, number, number][] = [
    [0, 0x3ffff, 1],
    [0xe0000, 0xe01ff, 1],
    [0xf0000, 0x10ffff, 97],
  ];
  for (const [from, to, step] of ranges) {
    for (let cp = from; cp <= to; cp += step) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      yield String.fromCodePoint(cp);
    }
  }
}

describe("parley's string-width", () => {
  afterAll(() => setWidthMode("code-points"));

  // A terminal that draws code points (the default) and one that clusters graphemes: a
  // lone code point is one grapheme, so both modes must agree with string-width on each.
  it.each(["code-points", "clusters"] as const)(
    "measures every assigned code point as string-width does (%s)",
    (mode) => {
      setWidthMode(mode);
      expect(differences(everyCodePoint())).toEqual([]);
    },
  );
});
