// A TCP port nobody listens on now, for a program that must be told its port up front
// (PostgreSQL, nginx, sshd, an inspector): taken by a listener, then given back.
import { createServer } from "node:net";
import { listenOn } from "../src/server/listen.ts";

export async function freePort(host = "127.0.0.1"): Promise<number> {
  const server = createServer();
  const port = await listenOn(server, 0, host);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
