// A small seeded generator (mulberry32), so the demo data is the same on every machine.
import type { Random } from "../ids.ts";

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** An integer in [min, max]. */
export const between = (random: Random, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1));
