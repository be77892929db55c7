// Puts parley's faster copies of a few of Ink's internal modules (src/ui/ink) in place of
// Ink's own, for the bundle (rolldown.config.ts) and the tests (test/vitest.config.ts):
//   build/output.js                     -> src/ui/ink/output.ts (caches kept across frames)
//   sanitize-ansi.js, from squashing    -> src/ui/ink/sanitize-ansi.ts (remembered)
//   widest-line, from any Ink module    -> src/ui/ink/widest-line.ts (remembered)
// Ink exports only its index, so `ink-original/<file>` names one of Ink's own build files,
// for the wrappers and for the test that compares the two Outputs. The copies are ports of
// one Ink version; any other stops the build rather than mixing two.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";

export const PORTED_INK_VERSION = "8.0.0";

const ROOT = resolve(import.meta.dirname, "..");
const OURS = join(ROOT, "src", "ui", "ink");
const ORIGINAL = "ink-original/";

type ResolveContext = {
  resolve(
    source: string,
    importer?: string,
    options?: { skipSelf?: boolean },
  ): Promise<{ id: string } | null>;
};

export function inkPlugin() {
  const inkBuild = dirname(createRequire(join(ROOT, "package.json")).resolve("ink"));
  const { version } = JSON.parse(readFileSync(join(inkBuild, "..", "package.json"), "utf8"));
  if (version !== PORTED_INK_VERSION) {
    throw new Error(
      `src/ui/ink ports Ink ${PORTED_INK_VERSION}'s output.js, but Ink ${version} is installed: port the changes to src/ui/ink (or pin Ink ${PORTED_INK_VERSION}).`,
    );
  }
  const inInk = (file: string) => file.startsWith(inkBuild + sep);
  const named = (file: string, name: string) => file === join(inkBuild, name);
  return {
    name: "parley-ink",
    enforce: "pre" as const,
    async resolveId(this: ResolveContext, source: string, importer?: string) {
      if (source.startsWith(ORIGINAL)) return join(inkBuild, source.slice(ORIGINAL.length));
      if (!importer) return null;
      const from = importer.split("?")[0]!;
      if (inInk(from)) {
        if (source === "./output.js" && named(from, "renderer.js")) return join(OURS, "output.ts");
        if (source === "./sanitize-ansi.js" && named(from, "squash-text-nodes.js")) {
          return join(OURS, "sanitize-ansi.ts");
        }
        if (source === "widest-line") return join(OURS, "widest-line.ts");
        return null;
      }
      // The copies use the same versions of string-width and friends as Ink's own files.
      if (from.startsWith(OURS + sep) && !source.startsWith(".") && !isAbsolute(source)) {
        const resolved = await this.resolve(source, join(inkBuild, "output.js"), {
          skipSelf: true,
        });
        return resolved?.id ?? null;
      }
      return null;
    },
  };
}
