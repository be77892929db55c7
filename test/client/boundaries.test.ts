// The UI draws and handles keys; starting servers, reading files and the process's
// signals belong to the start-up code (src/client/). Checked on the import graph: from
// any file under src/ui/, following relative imports (static and dynamic), no file of
// src/server/ is reached and no reached file imports node:fs.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(SPECIFIER)].map((match) => match[1]!);
}

/** Every file reached from `start` by relative imports, with what each one imports. */
function reach(start: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    const specifiers = importsOf(file);
    seen.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier));
    }
  }
  return seen;
}

describe("src/ui", () => {
  const graph = reach(sources(join(ROOT, "src/ui")));
  const name = (file: string) => relative(ROOT, file);

  it("reads its own files (the check sees the imports it is about)", () => {
    expect(graph.has(join(ROOT, "src/ui/app.tsx"))).toBe(true);
    expect(graph.has(join(ROOT, "src/api/client.ts"))).toBe(true);
  });

  it("never reaches the server", () => {
    const server = [...graph.keys()].map(name).filter((file) => file.startsWith("src/server/"));
    expect(server).toEqual([]);
  });

  it("never reads or writes files", () => {
    const fs = [...graph]
      .filter(([, specifiers]) => specifiers.some((s) => /^(node:)?fs(\/promises)?$/.test(s)))
      .map(([file]) => name(file));
    expect(fs).toEqual([]);
  });
});
