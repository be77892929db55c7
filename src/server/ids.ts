// Opaque ids with a type prefix. The body is a base36 millisecond time, a per-millisecond
// counter and random characters, so ids of items created in the same second sort in
// creation order (the contract's `created_at desc, id desc` tie-break relies on it).
import { randomBytes } from "node:crypto";

export type IdPrefix = "msg_" | "conv_" | "ct_" | "grp_" | "att_";

const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
const TIME_WIDTH = 9; // 36^9 ms reaches the year 5188
const COUNTER_WIDTH = 4;
const RANDOM_WIDTH = 6;

/** A random number in [0, 1): `Math.random` or a seeded generator. */
export type Random = () => number;

export function idAt(prefix: IdPrefix, ms: number, counter: number, random: Random): string {
  let tail = "";
  for (let i = 0; i < RANDOM_WIDTH; i++) tail += DIGITS[Math.floor(random() * 36)];
  return (
    prefix +
    Math.floor(ms).toString(36).padStart(TIME_WIDTH, "0") +
    counter.toString(36).padStart(COUNTER_WIDTH, "0") +
    tail
  );
}

let pool = randomBytes(0);
let poolAt = 0;
const cryptoRandom: Random = () => {
  if (poolAt >= pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  return pool[poolAt++]! / 256;
};

/** Makes ids that increase even when the clock stands still or steps back. */
export function createIdMaker(clockMs: () => number = Date.now, random: Random = cryptoRandom) {
  let lastMs = 0;
  let counter = 0;
  return (prefix: IdPrefix): string => {
    const ms = clockMs();
    if (ms > lastMs) {
      lastMs = ms;
      counter = 0;
    } else {
      counter++;
    }
    return idAt(prefix, lastMs, counter, random);
  };
}
