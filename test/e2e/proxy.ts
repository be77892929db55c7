// A TCP proxy the tests and the bench put between the client and the server: it forwards
// every byte, counts them (and the HTTP requests) each way, can hold them back for a
// while (a server "300 ms away"), and can be cut and restored (the server gone, then back)
// without touching the server or the client.
//   const proxy = await startProxy({ target: server.url, delayMs: 300 });
//   … PARLEY_BASE_URL=proxy.url …; proxy.cut(); proxy.restore(); proxy.counts()
// Plain TypeScript (type annotations only): the bench runs it under node directly.
import { createConnection, createServer, type Server, type Socket } from "node:net";

/** How a cut looks to the client. */
export type CutMode =
  /**
   * The server is down: current connections reset, and each new one reset the moment it
   * is accepted, the RST a closed port answers with. The proxy keeps listening, so its
   * port stays its own (closing the listener let another test take the port before the
   * restore). A client sees ECONNRESET here where a closed port gives ECONNREFUSED: both
   * are "the server is not there" to it.
   */
  | "refuse"
  /** Current connections reset; new ones accepted and reset at once (ECONNRESET). */
  | "reset"
  /** Current and new connections stay open, but nothing goes through either way (timeouts). */
  | "hang";

export type ProxyOptions = {
  /** Where to forward: "http://host:port" (any path is ignored) or a host and port. */
  target: string | { host?: string; port: number };
  /** Where to listen; default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /**
   * Milliseconds each chunk is held before it is passed on: a number for both directions
   * (a request and its response then take at least twice it), or each direction apart.
   * Connecting is not delayed, the first bytes are.
   */
  delayMs?: number | { up?: number; down?: number };
};

/** One HTTP/1.x request seen going up, as parsed from the byte stream. */
export type ProxyRequest = {
  method: string;
  /** As on the request line: path and query. */
  path: string;
  /** Date.now() when its head had come in. */
  at: number;
  /**
   * Bytes that came down its connection after it and before the next request there: its
   * response, exactly, for clients that wait for a response before the next request
   * (fetch and ofetch do: no pipelining).
   */
  bytesDown: number;
};

export type ProxyCounts = {
  /** TCP connections accepted and forwarded (not those refused or reset by a cut). */
  connections: number;
  /** HTTP requests sent up (request lines, bodies skipped by Content-Length or chunks). */
  requests: number;
  /** Bytes from the client to the server, exactly as received by the proxy. */
  bytesUp: number;
  /** Bytes from the server to the client, exactly as received by the proxy. */
  bytesDown: number;
};

export type TcpProxy = {
  /** "http://127.0.0.1:PORT": give this to the client in place of the server's address. */
  url: string;
  host: string;
  port: number;
  /** A snapshot; counted since the start or the last `resetCounts`. */
  counts(): ProxyCounts;
  /** The requests since the start or the last `resetCounts`, oldest first. */
  requests(): ProxyRequest[];
  resetCounts(): void;
  /** The server is gone: see `CutMode` (default "refuse"). */
  cut(mode?: CutMode): Promise<void>;
  /** The server is back: connections go through again. */
  restore(): Promise<void>;
  readonly isCut: boolean;
  setDelay(delayMs: ProxyOptions["delayMs"]): void;
  close(): Promise<void>;
};

type Delays = { up: number; down: number };

const delays = (d: ProxyOptions["delayMs"]): Delays =>
  typeof d === "number" ? { up: d, down: d } : { up: d?.up ?? 0, down: d?.down ?? 0 };

function targetOf(target: ProxyOptions["target"]): { host: string; port: number } {
  if (typeof target !== "string") return { host: target.host ?? "127.0.0.1", port: target.port };
  const url = new URL(target);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
  };
}

/**
 * Finds the requests in a client's byte stream: the request line and headers, then a body
 * of Content-Length bytes or in chunks. Enough for what parley and fetch send.
 */
export function createRequestCounter(onRequest: (method: string, path: string) => void) {
  let buffer: Buffer = Buffer.alloc(0);
  /** Body bytes still to skip. */
  let skip = 0;
  let chunked = false;
  return (chunk: Buffer): void => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      if (skip > 0) {
        const n = Math.min(skip, buffer.length);
        buffer = buffer.subarray(n);
        skip -= n;
        if (skip > 0) return;
      }
      if (chunked) {
        // chunk-size [;ext] CRLF data CRLF … 0 CRLF [trailers] CRLF
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const size = Number.parseInt(buffer.subarray(0, eol).toString("latin1"), 16);
        const rest = buffer.subarray(eol + 2);
        if (size > 0) {
          buffer = rest;
          skip = size + 2;
          continue;
        }
        // The last chunk: a blank line, or trailers and then a blank line.
        if (rest.length < 2) return;
        const end = rest[0] === 0x0d && rest[1] === 0x0a ? -2 : rest.indexOf("\r\n\r\n");
        if (end === -1) return;
        buffer = rest.subarray(end + 4);
        chunked = false;
        continue;
      }
      // Blank lines between requests are allowed.
      while (buffer.length >= 2 && buffer[0] === 0x0d && buffer[1] === 0x0a) {
        buffer = buffer.subarray(2);
      }
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1").split("\r\n");
      buffer = buffer.subarray(end + 4);
      const [method = "", path = ""] = head[0]!.split(" ");
      onRequest(method, path);
      for (const line of head.slice(1)) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === "content-length") skip = Number(value);
        else if (name === "transfer-encoding" && /chunked/i.test(value)) chunked = true;
      }
      if (chunked) skip = 0;
    }
  };
}

/** One direction of a connection: chunks held for the delay, in order, then written. */
function pipe(
  from: Socket,
  to: Socket,
  delay: () => number,
  held: () => boolean,
  count: (chunk: Buffer) => void,
): void {
  const queue: { due: number; chunk: Buffer }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const flush = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.due <= now) {
      const { chunk } = queue.shift()!;
      if (!to.destroyed) to.write(chunk);
    }
    if (queue.length > 0) timer = setTimeout(flush, queue[0]!.due - now);
    else if (ended && !to.destroyed) to.end();
  };
  from.on("data", (chunk: Buffer) => {
    if (held()) return; // a hanging cut: dropped, as by a dead link
    count(chunk);
    const ms = delay();
    if (ms <= 0 && queue.length === 0) {
      if (!to.destroyed) to.write(chunk);
      return;
    }
    // Never before a chunk that came earlier, whatever the delay is now.
    const due = Math.max(performance.now() + ms, queue.at(-1)?.due ?? 0);
    queue.push({ due, chunk });
    timer ??= setTimeout(flush, queue[0]!.due - performance.now());
  });
  from.on("end", () => {
    ended = true;
    if (queue.length === 0 && !to.destroyed) to.end();
  });
  to.on("close", () => {
    clearTimeout(timer);
    queue.length = 0;
  });
}

export async function startProxy(options: ProxyOptions): Promise<TcpProxy> {
  const target = targetOf(options.target);
  const host = options.host ?? "127.0.0.1";
  let delay = delays(options.delayMs);
  let counts: ProxyCounts = { connections: 0, requests: 0, bytesUp: 0, bytesDown: 0 };
  let log: ProxyRequest[] = [];
  let mode: CutMode | undefined;
  let closed = false;
  const sockets = new Set<Socket>();

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  };

  const onConnection = (client: Socket) => {
    track(client);
    if (mode === "reset" || mode === "refuse") {
      client.resetAndDestroy();
      return;
    }
    if (mode === "hang") {
      client.on("data", () => {}); // read and drop
      return;
    }
    counts.connections++;
    const upstream = createConnection({
      host: target.host,
      port: target.port,
      allowHalfOpen: true,
    });
    track(upstream);
    let latest: ProxyRequest | undefined;
    const countRequest = createRequestCounter((method, path) => {
      counts.requests++;
      latest = { method, path, at: Date.now(), bytesDown: 0 };
      log.push(latest);
    });
    // Each way with its own delay; a hanging cut holds both.
    const oneWay = (from: Socket, to: Socket, way: "up" | "down", count: (chunk: Buffer) => void) =>
      pipe(
        from,
        to,
        () => delay[way],
        () => mode === "hang",
        count,
      );
    oneWay(client, upstream, "up", (chunk) => {
      counts.bytesUp += chunk.length;
      countRequest(chunk);
    });
    oneWay(upstream, client, "down", (chunk) => {
      counts.bytesDown += chunk.length;
      if (latest) latest.bytesDown += chunk.length;
    });
    // Either side failing takes the other down: the client sees a reset, as from a server
    // that went away mid-answer.
    client.on("close", () => {
      if (!upstream.destroyed) upstream.destroy();
    });
    upstream.on("close", (hadError) => {
      if (client.destroyed) return;
      if (hadError) client.resetAndDestroy();
    });
    upstream.on("error", () => {
      if (!client.destroyed) client.resetAndDestroy();
    });
  };

  // Half-open both ways: a side that finishes sending may still receive (`pipe` ends the
  // other side once its queue is written).
  const server: Server = createServer({ allowHalfOpen: true }, onConnection);
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });

  await listen(options.port ?? 0);
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const port = address.port;

  const resetAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
  };

  const restore = async () => {
    if (closed) throw new Error("the proxy is closed");
    const was = mode;
    mode = undefined;
    // Connections that hung carry half-sent requests: drop them, as a client's timeout would.
    if (was === "hang") resetAll();
  };

  const cut = async (how: CutMode = "refuse") => {
    if (closed) throw new Error("the proxy is closed");
    if (mode !== undefined) await restore();
    mode = how;
    if (how === "hang") return; // connections stay, their bytes are dropped from now on
    resetAll();
  };

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    host,
    port,
    counts: () => ({ ...counts }),
    requests: () => log.map((r) => ({ ...r })),
    resetCounts() {
      counts = { connections: 0, requests: 0, bytesUp: 0, bytesDown: 0 };
      log = [];
    },
    cut,
    restore,
    get isCut() {
      return mode !== undefined;
    },
    setDelay(delayMs) {
      delay = delays(delayMs);
    },
    async close() {
      if (closed) return;
      closed = true;
      resetAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
