// `npm run build`: the CLI as one bundle in dist/, loaded in a few files instead of the
// ~800 modules of its dependencies (start-up time), with Ink's frame rendering sped up by
// src/ui/ink/plugin.ts. ssh2 is bundled too, without its optional native parts (sshcrypto,
// cpu-features): it falls back to JavaScript when they are missing, as they always are here
// (package.json's allowScripts never builds them). So the package has no dependencies.
import { defineConfig } from "rolldown";
import { inkPlugin } from "./src/ui/ink/plugin.ts";

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

export default defineConfig({
  // dist/cli.js, and dist/ssh-worker.js for `parley ssh`'s worker threads.
  input: { cli: "src/cli.ts", "ssh-worker": "src/ssh/worker.ts" },
  platform: "node",
  external: ["react-devtools-core", "cpu-features", /sshcrypto\.node$/],
  plugins: [inkPlugin(), noRestoreCursor()],
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
    sourcemap: true,
    cleanDir: true,
  },
});
