// A tiny real HTTP server (node:http, a real socket) that answers the way a foreign server
// might: each test scripts its answers. It is not a mock of parley's server; the client talks
// to it over real HTTP exactly as it would to any other.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { freePort } from "../free-port.ts";

export type Seen = {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
};

export type Handler = (req: Seen, res: ServerResponse) => void;

export type ForeignServer = {
  url: string;
  port: number;
  /** Every request that arrived, in order. */
  seen: Seen[];
  close(): Promise<void>;
};

/**
 * Starts a server on a free loopback port. `handlers` answer the requests in turn; the last one
 * answers every further request.
 */
export async function startForeignServer(...handlers: Handler[]): Promise<ForeignServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: Seen = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      seen.push(request);
      const handler = handlers[Math.min(seen.length - 1, handlers.length - 1)];
      handler?.(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
}

export function text(
  status: number,
  body: string,
  contentType = "text/plain",
  headers: Record<string, string> = {},
): Handler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": contentType, ...headers });
    res.end(body);
  };
}

/**
 * Passes `req` on to the server at `target` and its answer back; resolves with the answer's
 * body. If the server is gone meanwhile (a test ending while a request is held), the
 * connection is dropped and it resolves with undefined: no unhandled rejection.
 */
export async function relayTo(
  target: string,
  req: Seen,
  res: ServerResponse,
): Promise<string | undefined> {
  try {
    const answer = await fetch(target + req.url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === "GET" ? undefined : req.body,
    });
    const body = await answer.text();
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
    res.end(body);
    return body;
  } catch {
    res.destroy();
    return undefined;
  }
}

/** Never answers (until the server is closed). */
export const silent: Handler = () => {};

/** A port nothing listens on: bound, then released. */
export const closedPort = () => freePort();

export const message = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  conversation_id: "conv_1",
  contact: { id: "ct_alice", username: "alice" },
  message: `text of ${id}`,
  reactions: [],
  attachments: [],
  read_at: null,
  created_at: 1_700_000_000,
  updated_at: null,
  ...extra,
});

/** A conversation's own state and the person's in it, before anyone did anything with it. */
export const UNTOUCHED = {
  group_id: null,
  pinned_message_id: null,
  is_pinned: false,
  is_muted: false,
  last_active_at: null,
  last_opened_at: null,
  archived_at: null,
};

export const conversation = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  contact_id: "ct_bob",
  created_at: 1_700_000_000,
  ...UNTOUCHED,
  ...extra,
});
