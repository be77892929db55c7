// `npm run build`: the CLI as one bundle in dist/, loaded in a few files instead of the
// ~800 modules of its dependencies (start-up time), with Ink's frame rendering sped up by
// src/ui/ink/plugin.ts. ssh2 stays external: it loads optional native parts by itself.
import { defineConfig } from "rolldown";
import { inkPlugin } from "./src/ui/ink/plugin.ts";

export default defineConfig({
  // dist/cli.js, and dist/ssh-worker.js for `parley ssh`'s worker threads.
  input: { cli: "src/cli.ts", "ssh-worker": "src/ssh/worker.ts" },
  platform: "node",
  external: ["ssh2", "react-devtools-core"],
  plugins: [inkPlugin()],
  logLevel: "warn",
  checks: { moduleLevelDirective: false },
  output: {
    dir: "dist",
    chunkFileNames: "chunks/[name]-[hash].js",
    sourcemap: true,
    cleanDir: true,
  },
});
