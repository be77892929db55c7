// Preloaded into the built client (node --import) by startup.test.ts: when the main
// thread first writes a frame that lists conversations, it records which of Node's
// built-in modules and which of parley's files the main thread had loaded by then; and
// the built-in modules once more as the client exits. The bundle's CommonJS files are
// compiled by dist/cli.js itself (src/code-cache.ts), past the load hook: they are read
// from require's cache.
import { appendFileSync } from "node:fs";
import { createRequire, registerHooks } from "node:module";
import { pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";

const out = process.env.PARLEY_PROBE_FILE;
/** What dist/cli.js compiled itself, and whether from the cache the last run kept. */
const compiled = () => globalThis[Symbol.for("parley.code-cache")]?.loaded() ?? [];
if (isMainThread && out) {
  const files = [];
  registerHooks({
    load(url, context, nextLoad) {
      files.push(url);
      return nextLoad(url, context);
    },
  });
  const write = process.stdout.write.bind(process.stdout);
  let recorded = false;
  process.stdout.write = (chunk, ...rest) => {
    if (!recorded && String(chunk).includes("#team")) {
      recorded = true;
      const builtins = process.moduleLoadList.filter((m) => m.startsWith("NativeModule "));
      const required = Object.keys(createRequire(import.meta.url).cache).map(
        (file) => pathToFileURL(file).href,
      );
      appendFileSync(
        out,
        `${JSON.stringify({ when: "frame", files: [...files, ...required], builtins, compiled: compiled() })}\n`,
      );
    }
    return write(chunk, ...rest);
  };
  process.once("exit", () => {
    const builtins = process.moduleLoadList.filter((m) => m.startsWith("NativeModule "));
    appendFileSync(out, `${JSON.stringify({ when: "exit", files: [], builtins })}\n`);
  });
}
