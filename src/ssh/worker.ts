// A worker thread of `parley ssh` that runs sessions' clients (src/ssh/host.ts); the main
// thread keeps the SSH connections and the API server and passes each session's bytes.
import { parentPort } from "node:worker_threads";
import { createSessionHost, type ToHost } from "./host.ts";
import { giveBackWhenIdle } from "./idle-gc.ts";

if (!parentPort) throw new Error("src/ssh/worker.ts runs as a worker thread of parley ssh");
const port = parentPort;
// Ink's waitUntilExit adds a 'beforeExit' listener per mounted instance: one per session.
process.setMaxListeners(0);
const idle = giveBackWhenIdle(() => host.size() === 0);
const host = createSessionHost((message) => port.postMessage(message), idle);
port.on("message", (message: ToHost) => host.handle(message));
