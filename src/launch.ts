#!/usr/bin/env node
// dist/cli.js: runs the bundle (dist/parley.cjs and its chunks) with V8's code cache kept
// once the code has run (src/code-cache.ts), then src/cli.ts takes over.
import { createRequire } from "node:module";
import { CODE_CACHE, cacheFolder, installCodeCache } from "./code-cache.ts";

const bundle = import.meta.dirname;
(globalThis as { [CODE_CACHE]?: unknown })[CODE_CACHE] = installCodeCache(
  bundle,
  cacheFolder(process.env, bundle),
);
createRequire(import.meta.url)("./parley.cjs");
