// A worker thread of `parley ssh` that runs sessions' clients (src/ssh/host.ts); the main
// thread keeps the SSH connections and the API server and passes each session's bytes.
import * as nodeModule from "node:module";
import { parentPort } from "node:worker_threads";
import type { ToHost } from "./host.ts";

if (!parentPort) throw new Error("src/ssh/worker.ts runs as a worker thread of parley ssh");
const port = parentPort;
// A thread's compile cache is its own (the main thread's, from cli.ts, is not this one's):
// on before the client's modules load, they are read from it rather than compiled again.
// Sessions sent meanwhile wait in the port until its listener is on.
nodeModule.enableCompileCache?.();
// No top-level await: the bundle is CommonJS (rolldown.config.ts).
void Promise.all([import("./host.ts"), import("./idle-gc.ts")]).then(
  ([{ createSessionHost }, { giveBackWhenIdle }]) => {
    // Ink's waitUntilExit adds a 'beforeExit' listener per mounted instance: one per session.
    process.setMaxListeners(0);
    const idle = giveBackWhenIdle(() => host.size() === 0);
    const host = createSessionHost((message) => port.postMessage(message), idle);
    port.on("message", (message: ToHost) => host.handle(message));
  },
);
