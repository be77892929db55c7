// Puts parley's faster copies of a few of Ink's internal modules (this folder) in place of
// Ink's own, for the bundle (rolldown.config.ts) and the tests (test/vitest.config.ts):
//   build/output.js, from renderer.js          -> output.ts (caches kept across frames)
//   log-update.js, from ink.js                 -> log-update.ts (writes changed cells only)
//   sanitize-ansi.js, from squash-text-nodes.js -> sanitize-ansi.ts (remembered)
//   widest-line, from any Ink module            -> widest-line.ts (remembered)
//   components/Text.js, from index.js and ErrorOverview.js -> text.ts (fewer objects)
//   string-width, from anywhere but the copy    -> string-width.ts (by grapheme, remembered)
// Ink exports only its index, so `ink-original/<file>` names one of Ink's own build files,
// for the wrappers and for the test that compares the two Outputs. The copies are ports of
// one Ink version; any other stops the build rather than mixing two, and so does a build
// that included Ink without making all five swaps (a renamed file in a new Ink, say).
// Not part of the bundle: only the two configs import it.
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, sep } from "node:path";

export const PORTED_INK_VERSION = "8.0.0";

const ROOT = join(import.meta.dirname, "..");
/** The port of Ink's modules that this plugin swaps in. */
const OURS = join(ROOT, "src", "ui", "ink");
const ORIGINAL = "ink-original/";
const STRING_WIDTH = join(OURS, "string-width.ts");
// Under Vite (the tests), imported last by Ink's index.js: loaded once Ink's whole graph is.
const CHECK = "virtual:parley-ink-swaps";

type Swap = "output" | "log-update" | "sanitize-ansi" | "widest-line" | "text";
const SWAPS: readonly Swap[] = ["output", "log-update", "sanitize-ansi", "widest-line", "text"];

type ResolveContext = {
  resolve(
    source: string,
    importer?: string,
    options?: { skipSelf?: boolean },
  ): Promise<{ id: string } | null>;
};

export function inkPlugin() {
  const require = createRequire(join(ROOT, "package.json"));
  const inkBuild = dirname(require.resolve("ink"));
  // By path: Ink's `exports` does not list its package.json.
  const { version } = require(join(inkBuild, "..", "package.json")) as { version: string };
  if (version !== PORTED_INK_VERSION) {
    throw new Error(
      `src/ui/ink ports Ink ${PORTED_INK_VERSION}'s output.js, but Ink ${version} is installed: port the changes to src/ui/ink (or pin Ink ${PORTED_INK_VERSION}).`,
    );
  }
  const inInk = (file: string) => file.startsWith(inkBuild + sep);
  const named = (file: string, name: string) => file === join(inkBuild, name);
  // What this build (or this test run's server) has swapped, and whether Ink was in it.
  let inkSeen = false;
  const swapped = new Set<Swap>();
  const swap = (what: Swap, file: string) => {
    swapped.add(what);
    return join(OURS, file);
  };
  const checkSwaps = () => {
    const missing = SWAPS.filter((what) => !swapped.has(what));
    if (missing.length > 0) {
      throw new Error(
        `scripts/ink-plugin.ts: Ink ${version} was built without swapping ${missing.join(", ")}: Ink's files no longer import what the plugin expects; port src/ui/ink to it.`,
      );
    }
  };
  let vite = false;
  return {
    name: "parley-ink",
    enforce: "pre" as const,
    // Only Vite calls it. Vite builds a module when it is first imported, and its server
    // lives on past a run, so it checks in Ink's graph; rolldown checks in buildEnd.
    configResolved() {
      vite = true;
    },
    // Vitest: swaps are seen as Ink's files are transformed (Vite resolves their imports
    // then), so those transforms, and the check's, are not read back from Vitest's cache.
    configureVitest(context: {
      defineCacheKeyGenerator(generate: (module: { id: string }) => false | undefined): void;
    }) {
      context.defineCacheKeyGenerator(({ id }) =>
        inInk(id.split("?")[0]!) || id.includes(CHECK) ? false : undefined,
      );
    },
    buildStart() {
      inkSeen = false;
      swapped.clear();
    },
    async resolveId(this: ResolveContext, source: string, importer?: string) {
      if (source === CHECK) return `\0${CHECK}`;
      if (source.startsWith(ORIGINAL)) return join(inkBuild, source.slice(ORIGINAL.length));
      if (!importer) return null;
      const from = importer.split("?")[0]!;
      if (source === "string-width" && from !== STRING_WIDTH) return STRING_WIDTH;
      if (inInk(from)) {
        inkSeen = true;
        if (source === "./output.js" && named(from, "renderer.js")) {
          return swap("output", "output.ts");
        }
        if (source === "./log-update.js" && named(from, "ink.js")) {
          return swap("log-update", "log-update.ts");
        }
        if (source === "./sanitize-ansi.js" && named(from, "squash-text-nodes.js")) {
          return swap("sanitize-ansi", "sanitize-ansi.ts");
        }
        if (source === "widest-line") return swap("widest-line", "widest-line.ts");
        if (
          (source === "./components/Text.js" && named(from, "index.js")) ||
          (source === "./Text.js" && named(from, join("components", "ErrorOverview.js")))
        ) {
          return swap("text", "text.ts");
        }
        return null;
      }
      // The copies use the same versions of their dependencies as Ink's own files.
      if (from.startsWith(OURS + sep) && !source.startsWith(".") && !isAbsolute(source)) {
        const resolved = await this.resolve(source, join(inkBuild, "output.js"), {
          skipSelf: true,
        });
        return resolved?.id ?? null;
      }
      return null;
    },
    transform(code: string, id: string) {
      // Ink's index imports everything else first, one import after another under Vite.
      if (!vite || id.split("?")[0] !== join(inkBuild, "index.js")) return null;
      return { code: `${code}\nimport "${CHECK}";\n`, map: null };
    },
    load(id: string) {
      if (id !== `\0${CHECK}`) return null;
      checkSwaps();
      return "export {};";
    },
    buildEnd(error?: Error) {
      if (!vite && !error && inkSeen) checkSwaps();
    },
  };
}
