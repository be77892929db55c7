// An HTTP relay in front of the server for the bench: every request passed on and its answer
// streamed back (so an event stream goes through as it comes), and the server seen as one
// without events (`events: false`: /v1/events answers 404, as contract.md's discovery asks)
// or without conditional GETs (`etags: false`: no ETag down, no If-None-Match up).
// Plain TypeScript (type annotations only): the bench runs it under node directly.
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export type Relay = { url: string; close(): Promise<void> };

export async function startRelay(
  target: string,
  options: { events: boolean; etags: boolean },
): Promise<Relay> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    if (!options.events && req.url?.startsWith("/v1/events")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":{"type":"invalid_request","code":"not_found","message":"No such route."}}');
      return;
    }
    const headers = { ...req.headers };
    if (!options.etags) delete headers["if-none-match"];
    const up = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers },
      (answer) => {
        const down = { ...answer.headers };
        if (!options.etags) delete down.etag;
        res.writeHead(answer.statusCode ?? 502, down);
        answer.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
