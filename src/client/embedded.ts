// The embedded demo server that `parley` starts when no server is configured. Built, it
// runs on a worker thread (dist/server-worker.js), started before the client's modules
// load: with two cores its start-up and its answers cost the first frame almost nothing.
// From source there is no built worker script, and it runs on the main thread.
import { Worker } from "node:worker_threads";
import type { FromServerThread, ToServerThread } from "../server/worker.ts";

export type EmbeddedServer = {
  url: string;
  /** The demo users; the first is who the client signs in as. */
  demoUsers: { username: string; token: string }[];
  /** Settles only if the server's thread fails after it started. */
  crashed: Promise<Error>;
  close(): Promise<void>;
};

export type EmbeddedOptions = { db: string; demo: boolean; demoReplies: boolean };

/** How long the close waits for the thread to finish its requests and close the database. */
const CLOSE_WAIT_MS = 3000;

/** The server's failure to start, as its thread told it (cli.ts words `expected` ones). */
class EmbeddedServerError extends Error {
  readonly code?: string;
  readonly expected?: boolean;
  constructor(message: string, code?: string, expected?: boolean) {
    super(message);
    this.code = code;
    this.expected = expected;
  }
}

export async function startEmbeddedServer(
  options: EmbeddedOptions,
  /** The built worker script; without it, the server runs on this thread. */
  script: URL | undefined,
): Promise<EmbeddedServer> {
  if (script === undefined) {
    const { startServer } = await import("../server/index.ts");
    return { ...(await startServer(options)), crashed: new Promise<Error>(() => {}) };
  }
  // Its output is not the terminal's (node:sqlite's experimental warning, say): dropped.
  const worker = new Worker(script, { workerData: options, stdout: true, stderr: true });
  worker.stdout.resume();
  worker.stderr.resume();
  const messages: ((message: FromServerThread) => void)[] = [];
  worker.on("message", (message: FromServerThread) => {
    for (const listener of messages) listener(message);
  });
  const next = (type: FromServerThread["type"]) =>
    new Promise<FromServerThread>((resolve, reject) => {
      const listener = (message: FromServerThread) => {
        if (message.type === type || message.type === "failed") {
          messages.splice(messages.indexOf(listener), 1);
          worker.off("error", reject);
          resolve(message);
        }
      };
      messages.push(listener);
      worker.once("error", reject);
    });
  const started = await next("ready");
  if (started.type === "failed") {
    throw new EmbeddedServerError(started.message, started.code, started.expected);
  }
  if (started.type !== "ready") throw new Error("the embedded server did not start");
  let crash: (error: Error) => void = () => {};
  const crashed = new Promise<Error>((resolve) => {
    crash = resolve;
  });
  worker.on("error", crash);
  let closing: Promise<void> | undefined;
  return {
    url: started.url,
    demoUsers: started.demoUsers,
    crashed,
    close: () => {
      closing ??= (async () => {
        worker.off("error", crash);
        worker.on("error", () => {});
        const closed = next("closed").catch(() => undefined);
        worker.postMessage({ type: "close" } satisfies ToServerThread);
        const timeout = new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref());
        await Promise.race([closed, timeout]);
        await worker.terminate();
      })();
      return closing;
    },
  };
}
