import { drawnUnits } from "../../../src/ui/text/width.ts";

// Random text for the text tests' property checks, and graphemes to compare by.
export { seededRandom as random } from "../../../src/server/demo/random.ts";

/** The units `s` is drawn in (graphemes; a ZWJ sequence's parts where the terminal does not cluster). */
export const graphemesOf = (s: string) => Array.from(drawnUnits(s), (x) => x.segment);

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
