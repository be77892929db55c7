// `npm run build`: the CLI as one bundle in dist/, loaded in a few files instead of the
// ~800 modules of its dependencies (start-up time), with Ink's frame rendering sped up by
// scripts/ink-plugin.ts. ssh2 is bundled too, without its optional native parts (sshcrypto,
// cpu-features): it falls back to JavaScript when they are missing, as they always are here
// (package.json's allowScripts never builds them). So the package has no dependencies.
import { fileURLToPath, pathToFileURL } from "node:url";
import { defineConfig } from "rolldown";
import { inkPlugin } from "./scripts/ink-plugin.ts";

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
 * Emscripten loader fetches that URL whenever `fetch` exists: that loads Node's fetch
 * (undici, some 25 ms) on the way to the first frame, only to decode base64. Without
 * `fetch` the loader decodes it itself, so it is hidden for the synchronous part of the
 * call that checks for it. The build stops if yoga-layout no longer loads it so.
 */
function yogaWithoutFetch() {
  const id = "\0yoga-without-fetch";
  const binary = "../binaries/yoga-wasm-base64-esm.js";
  const index = /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;
  let loader: string | undefined;
  let yogaSeen = false;
  return {
    name: "parley-yoga-without-fetch",
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
      return `import loadYoga from ${JSON.stringify(loader)};
export default function loadYogaWithoutFetch(options) {
  const fetch = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  Object.defineProperty(globalThis, "fetch", { value: undefined, configurable: true, writable: true });
  try {
    return loadYoga(options);
  } finally {
    if (fetch) Object.defineProperty(globalThis, "fetch", fetch);
  }
}
`;
    },
    buildEnd(error?: Error) {
      if (!error && yogaSeen && !loader) {
        throw new Error(
          `rolldown.config.ts: yoga-layout no longer imports its WebAssembly from ${binary}: check yogaWithoutFetch.`,
        );
      }
    },
  };
}

export default defineConfig({
  // dist/cli.js; dist/ssh-worker.js for `parley ssh`'s worker threads, and
  // dist/server-worker.js for the client's embedded server (src/client/embedded.ts).
  input: {
    cli: "src/cli.ts",
    "ssh-worker": "src/ssh/worker.ts",
    "server-worker": "src/server/worker.ts",
  },
  platform: "node",
  external: ["react-devtools-core", "cpu-features", /sshcrypto\.node$/],
  plugins: [inkPlugin(), noRestoreCursor(), ofetchWithoutFallback(), yogaWithoutFetch()],
  // Production React and friends only: their development builds are most of the bundle
  // and render several times slower. The tests run the sources, with development React.
  // ssh2 is CommonJS and names __dirname (for a Windows helper it never runs here).
  transform: {
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      __dirname: "import.meta.dirname",
    },
  },
  logLevel: "warn",
  checks: { moduleLevelDirective: false },
  output: {
    dir: "dist",
    chunkFileNames: "chunks/[name]-[hash].js",
    // V8 keeps each module's source for as long as it runs, two bytes a character as soon
    // as one character is not Latin-1 (a "—" in a doc comment will do). Non-ASCII escaped
    // and doc comments left out, the client's chunk is held in some 1.4 MB, not 3.2.
    charset: "ascii",
    comments: { legal: true, annotation: true, jsdoc: false },
    sourcemap: true,
    cleanDir: true,
  },
});
