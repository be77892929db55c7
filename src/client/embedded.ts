// The embedded demo server that `parley` starts when no server is configured. It runs on
// the client's own thread. On a thread of its own it cost some 21 MB more resident (a
// worker's own Node and V8 heap, and zod, Hono and undici's classes loaded twice) and made
// no start sooner: the worker's own start took the second core that the thread was for
// (README, Architecture: Start-up and Memory).
import type { StartOptions } from "../server/index.ts";

export type EmbeddedServer = {
  url: string;
  /** The demo users; the first is who the client signs in as. */
  demoUsers: { username: string; token: string }[];
  close(): Promise<void>;
};

export type EmbeddedOptions = Pick<StartOptions, "db" | "demo" | "demoReplies">;

export async function startEmbeddedServer(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const { startServer } = await import("../server/index.ts");
  return startServer(options);
}
