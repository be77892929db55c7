// Random text for the text tests' property checks, and graphemes to compare by.
export { seededRandom as random } from "../../../src/server/demo/random.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
export const graphemesOf = (s: string) => Array.from(segmenter.segment(s), (x) => x.segment);

export function randomString(
  next: () => number,
  alphabet: readonly string[],
  maxParts: number,
): string {
  let s = "";
  const parts = Math.floor(next() * maxParts);
  for (let i = 0; i < parts; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}
