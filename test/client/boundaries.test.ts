// The UI draws and handles keys; starting servers, reading files and the process's
// signals belong to the start-up code (src/client/). Checked on the import graph: from
// any file under src/ui/, following relative imports (static and dynamic), no file of
// src/server/ is reached and no reached file imports node:fs.
//
// And no import cycle anywhere in src/: a module's imports can always be read before it.
// Cycles make start-up order matter (a value read before its module ran is undefined) and
// tie files together that should stand alone. Type imports count (a type cycle is a tie
// all the same).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
// `from` also covers `export … from`.
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

/** The source files `file` imports by relative path for their values (not `import type`). */
function valueImportsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export) (?!type )[^;]*?from "(\.[^"]+)";/gms)]
    .map((match) => resolve(dirname(file), match[1]!))
    .filter((target) => existsSync(target));
}

/** The source files `file` imports by relative path. */
function localImportsOf(file: string): string[] {
  return importsOf(file)
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

describe("src/", () => {
  const files = sources(join(ROOT, "src"));
  const graph = new Map(files.map((file) => [file, localImportsOf(file)]));
  const name = (file: string) => relative(ROOT, file);

  it("reads the imports (the check sees what it is about)", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(graph.get(join(ROOT, "src/ui/root.tsx"))).toContain(join(ROOT, "src/ui/app.tsx"));
    // Dynamic and type-only imports count as much as any other.
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

// src/ui's folders are layers, top to bottom: a file imports from its own folder and from
// the folders below it, never from one above (docs/architecture.md names what each holds).
const LAYERS = [
  "", // root.tsx and app.tsx
  "frame",
  "messages",
  "conversations",
  "composer",
  "chat",
  "queries",
  "keys",
  "screen",
  "model",
  "look",
  "text",
  "ink",
];

/**
 * The imports that still go up, each for a reason; no other may. `types`: the file only
 * names types from above (erased at run time: nothing above runs first).
 */
const UPWARD: Record<string, { to: string[]; types?: true; why: string }> = {
  "src/ui/chat/chat-context.tsx": {
    to: [
      "src/ui/composer/drafts.ts",
      "src/ui/conversations/actions.ts",
      "src/ui/conversations/use-conversation-browser.ts",
      "src/ui/messages/actions.ts",
    ],
    types: true,
    why: "the context's shape is the panes' own intents, which the panes read back",
  },
  "src/ui/screen/session.ts": {
    to: [
      "src/ui/composer/commands.ts",
      "src/ui/composer/drafts.ts",
      "src/ui/queries/changes.ts",
      "src/ui/queries/outbox.ts",
    ],
    why: "it makes the session's drafts and outbox; it moves up once the queries that read it no longer import it",
  },
  "src/ui/ink/string-width.ts": {
    to: ["src/ui/text/graphemes.ts"],
    why: "Ink's stand-in must stay in ink/ (scripts/ink-plugin.ts resolves its packages as Ink's) and measures by text/'s graphemes",
  },
};

describe("src/ui's layers", () => {
  const ui = join(ROOT, "src/ui");
  const layerOf = (file: string) => {
    const path = relative(ui, file);
    return path.includes("/") ? path.split("/")[0]! : "";
  };
  const files = sources(ui);
  const name = (file: string) => relative(ROOT, file);
  const upward = files.flatMap((file) =>
    localImportsOf(file)
      .filter((target) => target.startsWith(`${ui}/`))
      .filter((target) => LAYERS.indexOf(layerOf(target)) < LAYERS.indexOf(layerOf(file)))
      .map((target) => [name(file), name(target)] as const),
  );

  it("names every folder in its order", () => {
    const folders = readdirSync(ui, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !LAYERS.includes(folder))).toEqual([]);
    expect(LAYERS.filter((layer) => layer && !folders.includes(layer))).toEqual([]);
  });

  it("lets no folder import one above it, but the imports listed and why", () => {
    const unexplained = upward
      .filter(([file, target]) => !UPWARD[file]?.to.includes(target))
      .map(([file, target]) => `${file} → ${target}`);
    expect(unexplained).toEqual([]);
    // A listed import that is gone comes off the list.
    const listed = Object.entries(UPWARD).flatMap(([file, { to }]) =>
      to.map((target) => `${file} → ${target}`),
    );
    expect(upward.map(([file, target]) => `${file} → ${target}`).sort()).toEqual(listed.sort());
  });

  it("takes only types from above where the list says so", () => {
    const values = Object.entries(UPWARD)
      .filter(([, entry]) => entry.types)
      .flatMap(([file, { to }]) =>
        valueImportsOf(join(ROOT, file))
          .filter((target) => to.includes(name(target)))
          .map((target) => `${file} → ${name(target)}`),
      );
    expect(values).toEqual([]);
  });

  it("keeps the outbox and the drafts free of React: nothing they run imports it", () => {
    for (const start of ["src/ui/queries/outbox.ts", "src/ui/composer/drafts.ts"]) {
      const seen = new Set<string>();
      const queue = [join(ROOT, start)];
      const react: string[] = [];
      while (queue.length > 0) {
        const file = queue.pop()!;
        if (seen.has(file)) continue;
        seen.add(file);
        const text = readFileSync(file, "utf8");
        if (/^import (?!type )[^;]*from "(react|ink)";/m.test(text)) react.push(name(file));
        queue.push(...valueImportsOf(file));
      }
      expect(react, start).toEqual([]);
      expect(seen.size, start).toBeGreaterThan(1);
    }
  });
});
