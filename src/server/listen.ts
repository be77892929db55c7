// Listening, or failing to: a port in use (EADDRINUSE) or a host not on this machine
// rejects instead of becoming an 'error' event nobody hears.
import type { AddressInfo, Server } from "node:net";

/** Starts `server` listening on `host:port` (0: any free port) and resolves to the port it has. */
export function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
