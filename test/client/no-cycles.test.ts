// No import cycle anywhere in src/: a module's imports can always be read before it. Cycles
// make start-up order matter (a value read before its module ran is undefined) and tie
// files together that should stand alone. Checked on the graph of relative imports, type
// imports included (a type cycle is a tie all the same).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bexport\s*\*\s*from\s*)["']([^"']+)["']/g;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The source files `file` imports by relative path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(SPECIFIER)]
    .map((match) => match[1]!)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(file), specifier))
    .filter((target) => existsSync(target) && /\.tsx?$/.test(target));
}

/** Every cycle found by a depth-first walk, each as the files around it. */
function cycles(files: string[]): string[][] {
  const edges = new Map(files.map((file) => [file, importsOf(file)]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") found.push(path.slice(path.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

describe("src/", () => {
  const files = sources(join(ROOT, "src"));
  const name = (file: string) => relative(ROOT, file);

  it("finds a cycle where there is one (the check works)", () => {
    const a = join(ROOT, "a.ts");
    const b = join(ROOT, "b.ts");
    expect(files.length).toBeGreaterThan(50);
    expect(importsOf(join(ROOT, "src/ui/app.tsx")).length).toBeGreaterThan(5);
    // A two-file circle, through the same walk, with the edges given directly.
    const edges = new Map([
      [a, [b]],
      [b, [a]],
    ]);
    const state = new Set<string>();
    const walk = (file: string, trail: string[]): string[] | undefined => {
      if (trail.includes(file)) return [...trail, file];
      if (state.has(file)) return undefined;
      state.add(file);
      for (const next of edges.get(file) ?? []) {
        const hit = walk(next, [...trail, file]);
        if (hit) return hit;
      }
      return undefined;
    };
    expect(walk(a, [])).toEqual([a, b, a]);
  });

  it("has no import cycle", () => {
    expect(cycles(files).map((cycle) => cycle.map(name).join(" → "))).toEqual([]);
  });
});
