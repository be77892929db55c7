// The client's heap given back once it is quiet (src/client/heap-trim.ts), in a node of
// its own: a heap grown by a burst's garbage is collected once, a few seconds after the
// work stopped, and not again while nothing grows it.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const MODULE = new URL("../../src/client/heap-trim.ts", import.meta.url).href;

const script = `
const { trimHeapWhenQuiet } = await import(${JSON.stringify(MODULE)});
const { getHeapStatistics } = await import("node:v8");
const trims = [];
trimHeapWhenQuiet((before, after) => trims.push([before, after]));
// A burst's garbage: 200 MB made, most of it dropped at once, kept alive meanwhile.
let held = [];
for (let i = 0; i < 2e6; i++) held.push({ i, text: "message " + i, at: [i] });
held = held.slice(0, 1000);
const grown = getHeapStatistics().total_heap_size;
await new Promise((resolve) => setTimeout(resolve, 7_000));
console.log(JSON.stringify({ grown, trims, now: getHeapStatistics().total_heap_size, held: held.length }));
`;

describe("the heap, once the client is quiet", () => {
  it("is collected once, and given back", async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    const { grown, trims, now } = JSON.parse(stdout) as {
      grown: number;
      trims: [number, number][];
      now: number;
    };
    expect(grown).toBeGreaterThan(100 * 1024 * 1024);
    expect(trims).toHaveLength(1);
    const [before, after] = trims[0]!;
    expect(before).toBeGreaterThan(100 * 1024 * 1024);
    expect(after).toBeLessThan(before / 4);
    expect(now).toBeLessThan(grown / 4);
  }, 30_000);
});
