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

/** Every cycle a depth-first walk of `edges` meets, each as the files around it. */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("src/", () => {
  const files = sources(join(ROOT, "src"));
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const name = (file: string) => relative(ROOT, file);

  it("reads the imports (the check sees what it is about)", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(graph.get(join(ROOT, "src/ui/root.tsx"))).toContain(join(ROOT, "src/ui/app.tsx"));
    // A type-only import counts as much as any other.
    expect(graph.get(join(ROOT, "src/client/main.ts"))).toContain(join(ROOT, "src/client/run.ts"));
  });

  it("finds a circle where there is one, however long", () => {
    const circle = new Map([
      ["a", ["b"]],
      ["b", ["c", "d"]],
      ["c", []],
      ["d", ["a"]],
    ]);
    expect(cycles(circle)).toEqual([["a", "b", "d", "a"]]);
    expect(
      cycles(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
        ]),
      ),
    ).toEqual([]);
  });

  it("has no import cycle", () => {
    expect(cycles(graph).map((cycle) => cycle.map(name).join(" → "))).toEqual([]);
  });
});
