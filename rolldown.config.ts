// `npm run build`: the CLI as one bundle in dist/, loaded in a few files instead of the
// ~800 modules of its dependencies (start-up time), with Ink's frame rendering sped up by
// scripts/ink-plugin.ts. The bundle is CommonJS (dist/parley.cjs, dist/ssh-worker.cjs and
// dist/chunks/), run by dist/cli.js (src/launch.ts), which keeps V8's cache of the code
// once it has run: Node can do that for a script it is given, not for an ES module
// (src/code-cache.ts). ssh2 is bundled too, without its optional native parts (sshcrypto,
// cpu-features): it falls back to JavaScript when they are missing, as they always are here
// (package.json's allowScripts never builds them). So the package has no dependencies.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { defineConfig } from "rolldown";
import { inkPlugin } from "./scripts/ink-plugin.ts";
import { PAGE_FILES, VENDOR_FILES } from "./src/web/assets.ts";

/**
 * Ink hides the cursor through cli-cursor, whose restore-cursor writes "\x1b[?25h" to
 * stderr when the process exits: a stray byte in any log stderr goes to, and from a worker
 * thread not even the right terminal. Ink's unmount shows the cursor on its own stdout
 * (and src/client/main.ts unmounts on every way out), so the bundle leaves it out.
 */
function noRestoreCursor() {
  const id = "\0no-restore-cursor";
  return {
    name: "parley-no-restore-cursor",
    resolveId: (source: string) => (source === "restore-cursor" ? id : null),
    load: (loaded: string) => (loaded === id ? "export default function restoreCursor() {}" : null),
  };
}

/**
 * ofetch's Node entry bundles node-fetch-native (143 kB, about 25 ms to load) as a fallback
 * for a Node without `fetch`; every Node parley supports has it, and the entry only calls
 * the global one then. Its platform-neutral entry is the same code without the fallback.
 */
function ofetchWithoutFallback() {
  return {
    name: "parley-ofetch-global-fetch",
    resolveId: (source: string) =>
      source === "ofetch"
        ? fileURLToPath(import.meta.resolve("ofetch/package.json")).replace(
            /package\.json$/,
            "dist/index.mjs",
          )
        : null,
  };
}

/**
 * Ink's layout engine, yoga-layout, carries its WebAssembly as a base64 `data:` URL, and its
 * Emscripten loader compiles it asynchronously, through Node's fetch (undici) when `fetch`
 * exists. Given `instantiateWasm`, the loader leaves that step to us: here the module is
 * compiled and instantiated synchronously, its functions compiled as the layout first
 * calls them. Alone, yoga then loads in 10 ms rather than 35 to 80, holding 7 MB resident
 * rather than 24; in the idle client, 3 MB less (122.9 and 123.7 MB against 125.9 and
 * 126.8), its first frame no sooner (that wait overlapped other start-up work). The
 * payload moves from the loader into the wrapper, so the bundle carries it once. The
 * build stops if yoga-layout no longer loads it so.
 */
function yogaCompiledInPlace() {
  const id = "\0yoga-compiled-in-place";
  const binary = "../binaries/yoga-wasm-base64-esm.js";
  const index = /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;
  const dataUrl = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;
  let loader: string | undefined;
  let yogaSeen = false;
  const payload = (code: string) => {
    const found = dataUrl.exec(code);
    if (!found) {
      throw new Error(
        `rolldown.config.ts: yoga-layout's ${binary} no longer holds its WebAssembly as one base64 data: URL: check yogaCompiledInPlace.`,
      );
    }
    return found;
  };
  return {
    name: "parley-yoga-compiled-in-place",
    buildStart() {
      loader = undefined;
      yogaSeen = false;
    },
    resolveId(source: string, importer?: string) {
      if (!importer || !index.test(importer)) return null;
      yogaSeen = true;
      if (source !== binary) return null;
      loader = fileURLToPath(new URL(binary, pathToFileURL(importer)));
      return id;
    },
    load(loaded: string) {
      if (loaded !== id || !loader) return null;
      const wasm = payload(readFileSync(loader, "utf8"))[1];
      return `import loadYoga from ${JSON.stringify(loader)};
const wasm = ${JSON.stringify(wasm)};
// Emscripten's module is the object it is given, ready as the call returns when the
// WebAssembly is instantiated synchronously: yoga-layout's top-level await is not needed.
export default function loadYogaCompiledInPlace(options) {
  const yoga = {
    ...options,
    instantiateWasm(imports, receive) {
      const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(wasm, "base64")), imports);
      receive(instance);
      return instance.exports;
    },
  };
  loadYoga(yoga);
  if (!yoga.calledRun) throw new Error("yoga-layout did not start synchronously");
  return yoga;
}
`;
    },
    transform(code: string, file: string) {
      if (file !== loader) return null;
      // One string shorter on one line: the mappings stay as they were.
      return {
        code: code.replace(payload(code)[0], '"data:application/octet-stream;base64,"'),
        map: null,
      };
    },
    buildEnd(error?: Error) {
      if (!error && yogaSeen && !loader) {
        throw new Error(
          `rolldown.config.ts: yoga-layout no longer imports its WebAssembly from ${binary}: check yogaCompiledInPlace.`,
        );
      }
    },
  };
}

/**
 * string-width, wrap-ansi, slice-ansi, cli-truncate, ansi-tokenize and Ink's line-update each
 * make a grapheme Intl.Segmenter as they load, and the first costs some 8 ms (ICU loads its
 * break rules) before a first frame drawn from the server's answers. Each is given
 * src/ui/text/graphemes.ts instead, which answers the same and asks ICU only for text
 * that can hold a grapheme of more than one code point. The build stops at a segmenter it
 * does not know (one of another granularity, or made another way).
 */
function graphemesWithoutIcuAtLoad() {
  const ours = fileURLToPath(new URL("./src/ui/text/graphemes.ts", import.meta.url));
  const made =
    /new Intl\.Segmenter\(\s*(?:(?:undefined|void 0)\s*,\s*\{\s*granularity:\s*(["'])grapheme\1\s*\}\s*)?\)/g;
  return {
    name: "parley-graphemes-without-icu-at-load",
    transform(code: string, file: string) {
      if (!file.includes("/node_modules/") || !code.includes("Intl.Segmenter")) return null;
      const replaced = code.replace(made, "__parleyGraphemes");
      if (replaced.includes("new Intl.Segmenter")) {
        throw new Error(
          `rolldown.config.ts: ${file} makes an Intl.Segmenter that graphemesWithoutIcuAtLoad does not know: check it.`,
        );
      }
      // On the first line, so that the mappings stay as they were.
      return {
        code: `import { graphemes as __parleyGraphemes } from ${JSON.stringify(ours)}; ${replaced}`,
        map: null,
      };
    },
  };
}

/**
 * node-emoji reads only each emoji's name and character from emojilib, whose table also
 * holds every emoji's keywords and category, and an ordering: some 240 kB of the client's
 * source and 0.7 MB of objects, kept for as long as the client runs. The bundle carries
 * the names and characters alone. The build stops if node-emoji reads more of emojilib
 * than that.
 */
function emojilibNamesOnly() {
  const id = "\0emojilib-names-only";
  const nodeEmoji = /[\\/]node-emoji[\\/]lib[\\/]index\.js$/;
  let carried = false;
  let checked = false;
  return {
    name: "parley-emojilib-names-only",
    buildStart() {
      carried = false;
      checked = false;
    },
    resolveId: (source: string) => (source === "emojilib" ? id : null),
    load(loaded: string) {
      if (loaded !== id) return null;
      carried = true;
      const { lib } = createRequire(import.meta.url)("emojilib") as {
        lib: Record<string, { char: string }>;
      };
      const names = Object.fromEntries(
        Object.entries(lib).map(([name, { char }]) => [name, { char }]),
      );
      // Parsed from JSON when node-emoji reads it: quicker than a literal of 1,570 objects,
      // and nothing of it stays but node-emoji's own maps. The emoji are JSON escapes, so the
      // string is held one byte a character.
      const json = JSON.stringify(names).replace(
        /[^\x00-\x7f]/g,
        (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
      );
      return `const TABLE = ${JSON.stringify(json)};
export default {
  get lib() {
    return JSON.parse(TABLE);
  },
};
`;
    },
    transform(code: string, file: string) {
      if (!nodeEmoji.test(file)) return null;
      const reads = code.match(/emojilib\.\w+/g) ?? [];
      if (reads.length === 0 || reads.some((read) => read !== "emojilib.lib")) {
        throw new Error(
          `rolldown.config.ts: node-emoji reads ${reads.join(", ") || "nothing"} of emojilib, not only emojilib.lib: check emojilibNamesOnly.`,
        );
      }
      checked = true;
      return null;
    },
    buildEnd(error?: Error) {
      if (!error && carried && !checked) {
        throw new Error(
          "rolldown.config.ts: emojilib is bundled, but not through node-emoji's lib/index.js: check emojilibNamesOnly.",
        );
      }
    },
  };
}

/**
 * An `import` of node:http makes Node build the module's ESM face from every export, and
 * three of them (WebSocket, CloseEvent, MessageEvent) are getters that load undici, Node's
 * fetch, whole: some 5 MB that the client never uses (src/api/fetch-classes.ts). The
 * bundle's imports of node:http, @hono/node-server's among them, read the module through
 * `process.getBuiltinModule` instead, and only its plain values. A name that is not one
 * stops the build.
 */
function nodeHttpWithoutGetters() {
  const id = "\0node-http-without-getters";
  return {
    name: "parley-node-http-without-getters",
    resolveId: (source: string) => (source === "node:http" || source === "http" ? id : null),
    load(loaded: string) {
      if (loaded !== id) return null;
      const http = createRequire(import.meta.url)("node:http") as object;
      const names = Object.entries(Object.getOwnPropertyDescriptors(http))
        .filter(([name, descriptor]) => !descriptor.get && /^[A-Za-z_$][\w$]*$/.test(name))
        .map(([name]) => name);
      return `const http = process.getBuiltinModule("node:http");
export default http;
export const { ${names.join(", ")} } = http;
`;
    },
  };
}

/**
 * @hono/node-server's WebSocket helper, which parley does not use, reads `globalThis.CloseEvent`
 * as its module loads, to fall back on a class of its own; the bundle leaves the helper
 * out but keeps the read, and that read loads undici (see nodeHttpWithoutGetters). Made a
 * pure call, it goes with the helper. The build stops if the helper no longer reads it so.
 */
function honoWithoutEventGlobals() {
  const file = /[\\/]@hono[\\/]node-server[\\/]dist[\\/]index\.mjs$/;
  const reads = /globalThis\.(CloseEvent|ErrorEvent) \?\?/g;
  return {
    name: "parley-hono-without-event-globals",
    transform(code: string, id: string) {
      if (!file.test(id)) return null;
      if ((code.match(reads) ?? []).length !== 2) {
        throw new Error(
          "rolldown.config.ts: @hono/node-server no longer reads globalThis.CloseEvent and ErrorEvent as honoWithoutEventGlobals expects: check it.",
        );
      }
      // On their lines, so that the mappings stay as they were.
      return {
        code: code.replace(reads, "/* @__PURE__ */ (() => globalThis.$1)() ??"),
        map: null,
      };
    },
  };
}

/**
 * @hono/node-server imports node:http2 for two things: to tell an HTTP/2 request apart
 * (`instanceof Http2ServerRequest`) and one of its constants, read only for such a request.
 * parley's servers are node:http's (HTTP/1.1), so no request is ever one; and loading
 * node:http2 (and node:tls with it) costs some 4 MB resident in a bare `node`, 1.5 MB in
 * the idle client. The adapter is given a stand-in: nothing is an instance of its class,
 * and its constants come from node:http2 if anything ever reads one. The build stops if
 * the adapter imports anything else of node:http2.
 */
function honoWithoutHttp2() {
  const id = "\0hono-without-http2";
  const adapter = /[\\/]@hono[\\/]node-server[\\/]dist[\\/]index\.mjs$/;
  return {
    name: "parley-hono-without-http2",
    resolveId: (source: string, importer?: string) =>
      source === "node:http2" && importer && adapter.test(importer) ? id : null,
    load: (loaded: string) =>
      loaded === id
        ? `export class Http2ServerRequest {
  static [Symbol.hasInstance]() {
    return false;
  }
}
export const constants = new Proxy({}, {
  get: (_, name) => process.getBuiltinModule("node:http2").constants[name],
});
`
        : null,
    transform(code: string, file: string) {
      if (!adapter.test(file)) return null;
      const imports = code.match(/import \{([^}]*)\} from "node:http2"/g) ?? [];
      if (
        imports.length !== 1 ||
        !/^import \{ Http2ServerRequest, constants \}/.test(imports[0]!)
      ) {
        throw new Error(
          `rolldown.config.ts: @hono/node-server imports ${imports.join("; ") || "nothing"} of node:http2, not only Http2ServerRequest and constants: check honoWithoutHttp2.`,
        );
      }
      return null;
    },
  };
}

/**
 * CommonJS has no top-level await, and three modules of the bundle have one:
 * yoga-layout's index awaits its WebAssembly, which yogaCompiledInPlace makes synchronous;
 * Ink's reconciler awaits its devtools and its package.json, only when DEV=true, which
 * parley never is. The build stops if any of them changes.
 */
function withoutTopLevelAwait() {
  const yogaIndex = /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;
  const reconciler = /[\\/]ink[\\/]build[\\/]reconciler\.js$/;
  const replace = (code: string, file: string, pairs: [string, string][]) => {
    for (const [from, to] of pairs) {
      if (code.split(from).length !== 2) {
        throw new Error(
          `rolldown.config.ts: ${file} no longer holds \`${from}\` once: check withoutTopLevelAwait.`,
        );
      }
      code = code.replace(from, to);
    }
    return { code, map: null };
  };
  return {
    name: "parley-without-top-level-await",
    transform(code: string, file: string) {
      if (yogaIndex.test(file)) {
        return replace(code, file, [
          ["wrapAssembly(await loadYoga())", "wrapAssembly(loadYoga())"],
        ]);
      }
      if (reconciler.test(file)) {
        return replace(code, file, [
          ["import.meta.resolve('react-devtools-core');", "throw 0;"],
          ["await import('./devtools.js');", ""],
          ["await loadPackageJson()", "{}"],
        ]);
      }
      return null;
    },
  };
}

/**
 * `parley web`'s page beside the bundle, in dist/web/: its own files and xterm.js with its
 * addons from their packages, so the package serves everything itself (no CDN).
 */
function webPage() {
  const require = createRequire(import.meta.url);
  return {
    name: "parley-web-page",
    generateBundle(this: {
      emitFile(file: { type: "asset"; fileName: string; source: Uint8Array }): string;
    }) {
      for (const name of PAGE_FILES) {
        const source = readFileSync(new URL(`src/web/page/${name}`, import.meta.url));
        this.emitFile({ type: "asset", fileName: `web/${name}`, source });
      }
      for (const [name, from] of Object.entries(VENDOR_FILES)) {
        const source = readFileSync(require.resolve(from));
        this.emitFile({ type: "asset", fileName: `web/${name}`, source });
      }
    },
  };
}

export default defineConfig([
  {
    // dist/parley.cjs, and dist/ssh-worker.cjs for `parley ssh`'s worker threads.
    input: {
      parley: "src/cli.ts",
      "ssh-worker": "src/ssh/worker.ts",
    },
    platform: "node",
    external: ["react-devtools-core", "cpu-features", /sshcrypto\.node$/],
    plugins: [
      inkPlugin(),
      noRestoreCursor(),
      ofetchWithoutFallback(),
      yogaCompiledInPlace(),
      withoutTopLevelAwait(),
      graphemesWithoutIcuAtLoad(),
      emojilibNamesOnly(),
      nodeHttpWithoutGetters(),
      honoWithoutEventGlobals(),
      honoWithoutHttp2(),
      webPage(),
    ],
    // Production React and friends only: their development builds are most of the bundle
    // and render several times slower. The tests run the sources, with development React.
    transform: {
      define: { "process.env.NODE_ENV": JSON.stringify("production") },
    },
    logLevel: "warn",
    checks: { moduleLevelDirective: false },
    output: {
      dir: "dist",
      format: "cjs",
      entryFileNames: "[name].cjs",
      chunkFileNames: "chunks/[name]-[hash].cjs",
      // V8 keeps each module's source for as long as it runs, two bytes a character as
      // soon as one character is not Latin-1 (a "—" in a doc comment will do). Non-ASCII
      // escaped and doc comments left out, the client's chunk is held in some 1.4 MB, not 3.2.
      charset: "ascii",
      comments: { legal: true, annotation: true, jsdoc: false },
      sourcemap: true,
      cleanDir: true,
    },
  },
  {
    // dist/cli.js, the command: an ES module of its own, built after the bundle it runs.
    input: { cli: "src/launch.ts" },
    platform: "node",
    logLevel: "warn",
    output: { dir: "dist", format: "esm", sourcemap: true, cleanDir: false },
  },
]);
