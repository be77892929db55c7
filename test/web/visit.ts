// A visitor of `parley web` (src/web/server.ts, in this process) over a real WebSocket:
// what the server says in JSON, and how many bytes of screen it sends.
import { once } from "node:events";
import { WebSocket } from "ws";
import type { WebServer } from "../../src/web/server.ts";

export type Visit = {
  socket: WebSocket;
  /** The JSON texts the server sent. */
  said: Record<string, unknown>[];
  /** Bytes of screen received. */
  bytes(): number;
  closed: Promise<number>;
};

/** A WebSocket to `web`'s /session, from `origin` (default: its own page's). */
export function openVisit(
  web: WebServer,
  origin = `http://127.0.0.1:${web.port}`,
  headers: Record<string, string> = {},
): Visit {
  const socket = new WebSocket(`ws://127.0.0.1:${web.port}/session`, { origin, headers });
  const said: Record<string, unknown>[] = [];
  let bytes = 0;
  socket.on("message", (data, binary) => {
    if (binary) bytes += (data as Buffer).length;
    else said.push(JSON.parse(String(data)));
  });
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  return { socket, said, bytes: () => bytes, closed };
}

/** The visitor's first message, once the socket is open: its terminal's size and theme. */
export async function hello(visit: Visit, extra: Record<string, unknown> = {}): Promise<void> {
  if (visit.socket.readyState !== WebSocket.OPEN) await once(visit.socket, "open");
  visit.socket.send(
    JSON.stringify({ type: "hello", columns: 100, rows: 30, theme: "dark", ...extra }),
  );
}
