// The client's embedded demo server on a thread of its own (src/client/embedded.ts): it
// loads and opens while the client loads Ink and React on the main thread, and answers
// requests there while the client draws.
import * as nodeModule from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import type { StartOptions } from "./index.ts";

export type FromServerThread =
  | { type: "ready"; url: string; demoUsers: { username: string; token: string }[] }
  | { type: "failed"; message: string; code?: string; expected?: boolean }
  | { type: "closed" };
export type ToServerThread = { type: "close" };

if (!parentPort) throw new Error("src/server/worker.ts runs as a worker thread of the client");
const port = parentPort;
const post = (message: FromServerThread) => port.postMessage(message);
// A thread's compile cache is its own (the main thread's, from cli.ts, is not this one's):
// on before the server's modules load, they are read from it rather than compiled again.
nodeModule.enableCompileCache?.();
const { startServer } = await import("./index.ts");

try {
  const server = await startServer(workerData as StartOptions);
  post({
    type: "ready",
    url: server.url,
    demoUsers: server.demoUsers.map(({ username, token }) => ({ username, token })),
  });
  port.on("message", (message: ToServerThread) => {
    if (message.type !== "close") return;
    void server.close().then(() => {
      post({ type: "closed" });
      port.close();
    });
  });
} catch (error) {
  const { message, code, expected } = error as Error & { code?: string; expected?: boolean };
  post({ type: "failed", message, code, expected });
  port.close();
}
