// Preloaded into the built client (node --import) by startup.test.ts: when the main
// thread first writes a frame that lists conversations, it records which of Node's
// built-in modules and which of parley's files the main thread had loaded by then; and
// the built-in modules once more as the client exits.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { isMainThread } from "node:worker_threads";

const out = process.env.PARLEY_PROBE_FILE;
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
      appendFileSync(out, `${JSON.stringify({ when: "frame", files, builtins })}\n`);
    }
    return write(chunk, ...rest);
  };
  process.once("exit", () => {
    const builtins = process.moduleLoadList.filter((m) => m.startsWith("NativeModule "));
    appendFileSync(out, `${JSON.stringify({ when: "exit", files: [], builtins })}\n`);
  });
}
