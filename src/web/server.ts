// `parley web`'s HTTP server: one page (src/web/page/) and, at /session, a WebSocket per
// visitor on which the same client as `parley ssh` runs (its session registry, host pool,
// input bounds and resize coalescing: src/ssh/sessions.ts). It faces the internet: the
// WebSocket must come from this page's own origin, messages are bounded, visitors are
// capped in all and per address and ended when idle, the page sends a strict CSP, and
// whatever a visitor sends reaches the log escaped, if at all.
import { createServer, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { logEscape, logLine } from "../log-escape.ts";
import { httpServerOptions } from "../server/connections.ts";
import { clientAddress, trustedProxies } from "../server/forwarded.ts";
import type { DemoUser } from "../server/index.ts";
import { listenOn } from "../server/listen.ts";
import { failureTracker } from "../ssh/failures.ts";
import { addressOf, connectionGate } from "../ssh/gate.ts";
import { giveBackWhenIdle } from "../ssh/idle-gc.ts";
import { PASTE_BURST_BYTES } from "../ssh/input-limit.ts";
import { limitedLog } from "../ssh/log-limit.ts";
import { sessionPool } from "../ssh/pool.ts";
import { createSessionRegistry, type LiveSession, type SessionApi } from "../ssh/sessions.ts";
import { loadAssets } from "./assets.ts";
import { endSocket, type Hello, parseHello, socketTerminal } from "./socket.ts";

/** Caps an operator may set (`parley web --max-…`); unset, the defaults below. */
export type WebLimits = {
  /** Visitors (sessions) at once. Default 64. */
  maxSessions?: number;
  /** Visitors from one address at once. Default 4. */
  maxSessionsPerAddress?: number;
  /** TCP connections at once (page loads and sessions). Default 400. */
  maxConnections?: number;
  /** TCP connections from one address. Default 20. */
  maxConnectionsPerAddress?: number;
  /** A session nobody typed in for this long is ended. Default 15 minutes. */
  idleMs?: number;
};

export const WEB_DEFAULTS = {
  maxSessions: 64,
  maxSessionsPerAddress: 4,
  maxConnections: 400,
  maxConnectionsPerAddress: 20,
  idleMs: 15 * 60_000,
} as const;

/** Who a visitor is: a demo user (in a world of their own, or the shared one), or their token's. */
export type WebAccess =
  | {
      kind: "demo";
      url: string;
      users: readonly DemoUser[];
      /** A world per visitor; unset: everyone in the API at `url`. */
      world?: ((username: string) => Promise<SessionApi>) | undefined;
    }
  | { kind: "token"; url: string };

export type WebServerOptions = WebLimits & {
  host?: string;
  port?: number;
  /** Where the page's files are (dist/web/, or src/web/page/ from source). */
  assets: URL;
  access: WebAccess;
  log?: (line: string) => void;
  /** Where each user's drafts are kept between sessions (token sign-in only). */
  keepDir?: string;
  /** The built session worker (dist/ssh-worker.cjs); without it sessions run on this thread. */
  hostScript?: URL;
  hostThreads?: number;
  /** Origins besides the page's own that may open sessions (a proxy's public address). */
  origins?: readonly string[];
  /**
   * Reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For names the visitor;
   * none: the connection's own address is the visitor's.
   */
  trustProxy?: readonly string[];
};

export type WebServer = {
  host: string;
  port: number;
  url: string;
  liveSessions(): number;
  threads: number;
  close(): Promise<void>;
};

/** A message is at most one paste's worth (the input bound) and a little. */
export const MAX_MESSAGE_BYTES = PASTE_BURST_BYTES + 4096;
const HELLO_MS = 10_000;
const PING_MS = 30_000;

/**
 * Only this page's own scripts and styles (xterm.js sets some styles inline), its own
 * WebSocket, and no framing: a page that runs a chat client must not be drawn inside
 * another site's.
 */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cache-control": "no-cache",
};

/** The WebSocket comes from the page this server served (or a named proxy's). */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  others: readonly string[] = [],
): boolean {
  if (!origin || !host) return false;
  if (others.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && url.host === host;
  } catch {
    return false;
  }
}

/** Tells a visitor no before any WebSocket: a plain HTTP answer, and the connection closed. */
function refuseUpgrade(socket: Socket, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Who the token signs in as on the API server, or undefined when it does not. */
async function whoIs(url: string, token: string): Promise<string | undefined> {
  const answer = await fetch(`${url}/v1/conversations?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await answer.body?.cancel();
  return answer.ok ? (answer.headers.get("parley-user") ?? undefined) : undefined;
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? "127.0.0.1";
  const write = options.log ?? (() => {});
  const log = (line: string) => write(logLine(line));
  const noisy = limitedLog(log, { name: "parley web" });
  const limits = {
    maxSessions: options.maxSessions ?? WEB_DEFAULTS.maxSessions,
    maxSessionsPerAddress: options.maxSessionsPerAddress ?? WEB_DEFAULTS.maxSessionsPerAddress,
    maxConnections: options.maxConnections ?? WEB_DEFAULTS.maxConnections,
    maxConnectionsPerAddress:
      options.maxConnectionsPerAddress ?? WEB_DEFAULTS.maxConnectionsPerAddress,
    idleMs: options.idleMs ?? WEB_DEFAULTS.idleMs,
  };
  const { access } = options;
  const trusted = trustedProxies(options.trustProxy);
  const assets = loadAssets(options.assets, access.kind === "demo" ? "demo" : "token");
  if (process.getMaxListeners() < limits.maxSessions + 10) {
    process.setMaxListeners(limits.maxSessions + 10);
  }
  const { pool, threads } = sessionPool(options.hostScript, options.hostThreads, log);
  const sessions = createSessionRegistry({
    pool,
    name: "parley web",
    keepDir: access.kind === "token" ? options.keepDir : undefined,
    maxSessions: limits.maxSessions,
    idleMs: limits.idleMs,
    log,
    onIdle: giveBackWhenIdle(() => sessions.size() === 0),
  });
  const perAddress = new Map<string, number>();
  const failures = failureTracker();
  const gate = connectionGate({
    maxConnections: limits.maxConnections,
    maxPerAddress: limits.maxConnectionsPerAddress,
    log: noisy,
    name: "parley web",
    // A trusted proxy carries every visitor's connections: they are capped by the
    // address it forwards, per session.
    uncapped: trusted.has,
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  /** Why a visitor may not start a session now; undefined: they may. */
  function refusal(address: string): string | undefined {
    if (sessions.closing()) return "parley: the server is shutting down.";
    if (sessions.isFull()) {
      return `parley: this server is full (${limits.maxSessions} visitors); try again in a while.`;
    }
    if ((perAddress.get(address) ?? 0) >= limits.maxSessionsPerAddress) {
      return `parley: ${limits.maxSessionsPerAddress} sessions from your address are open already; close one first.`;
    }
    return undefined;
  }

  /** In the shared demo world: the demo user fewest visitors are now. */
  function leastBusy(users: readonly DemoUser[]): DemoUser {
    return users.reduce((a, b) =>
      sessions.countOf(b.username) < sessions.countOf(a.username) ? b : a,
    );
  }

  async function signIn(
    hello: Hello,
    address: string,
  ): Promise<{ username: string; api: () => Promise<SessionApi>; key: string } | string> {
    if (access.kind === "demo") {
      const world = access.world;
      if (world) return { username: "alice", api: () => world("alice"), key: "the demo" };
      const user = leastBusy(access.users);
      return {
        username: user.username,
        api: async () => ({ url: access.url, token: user.token }),
        key: "the demo",
      };
    }
    const token = hello.token;
    const username = token === undefined ? undefined : await whoIs(access.url, token);
    if (token === undefined || username === undefined) {
      noisy(
        `parley web: failed sign-in from ${logEscape(address)}: ${token ? "unknown token" : "no token"}`,
      );
      await failures.failed(address);
      return "That token does not sign in here.";
    }
    return { username, api: async () => ({ url: access.url, token }), key: "a token" };
  }

  async function visit(socket: WebSocket, hello: Hello, address: string, from: string) {
    const why = refusal(address);
    if (why) {
      noisy(`parley web: refused ${from}: ${why.replace(/^parley: /, "")}`);
      return endSocket(socket, [why], 1013);
    }
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    const release = () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    };
    let who: Awaited<ReturnType<typeof signIn>>;
    try {
      who = await signIn(hello, address);
    } catch (error) {
      release();
      log(`parley web: sign-in of ${from} failed: ${logEscape((error as Error).message)}`);
      return endSocket(socket, ["parley: the server could not sign you in; try again."], 1011);
    }
    if (typeof who === "string") {
      release();
      if (socket.readyState === socket.OPEN) {
        socket.send(JSON.stringify({ type: "signin", message: who }));
        socket.close(1008);
      }
      return;
    }
    if (socket.readyState !== socket.OPEN) return release();
    let entry: LiveSession | undefined;
    entry = sessions.start({
      terminal: socketTerminal(socket, hello, (columns, rows) => entry?.resize(columns, rows)),
      username: who.username,
      api: who.api,
      from,
      link: {
        backlog: () => socket.bufferedAmount,
        cut: () => socket.terminate(),
      },
      key: who.key,
    });
    void entry.done.then(release);
  }

  sockets.on("connection", (socket: WebSocket, request: IncomingMessage) => {
    const raw = request.socket;
    const peer = addressOf(raw);
    const address = clientAddress(peer, request.headers["x-forwarded-for"], trusted);
    const from =
      address === peer
        ? `${logEscape(address)}:${raw.remotePort ?? "?"}`
        : `${logEscape(address)} via ${logEscape(peer)}`;
    raw.setNoDelay(true);
    gate.signedIn(raw);
    // A browser that vanished (a laptop lid) answers no ping: it is let go.
    let alive = true;
    socket.on("pong", () => {
      alive = true;
    });
    const ping = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, PING_MS);
    ping.unref();
    socket.on("close", () => {
      clearInterval(ping);
      clearTimeout(waiting);
    });
    socket.on("error", (error: Error) => noisy(`parley web: ${from}: ${logEscape(error.message)}`));
    const waiting = setTimeout(() => {
      noisy(`parley web: closed ${from}: no hello within ${HELLO_MS / 1000} s`);
      socket.terminate();
    }, HELLO_MS);
    waiting.unref();
    socket.once("message", (data, binary) => {
      clearTimeout(waiting);
      const hello = binary ? "a binary first message" : parseHello(String(data));
      if (typeof hello === "string") {
        noisy(`parley web: refused ${from}: ${hello}`);
        return endSocket(
          socket,
          ["parley: this page does not speak this server's language; reload it."],
          1002,
        );
      }
      void visit(socket, hello, address, from);
    });
  });

  const server = createServer(httpServerOptions(), (request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", ...PAGE_HEADERS }).end();
      return;
    }
    // The last part of the path, so that a proxy may serve the page under a folder of its own.
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const name = path.slice(path.lastIndexOf("/") + 1) || "index.html";
    const asset = assets.get(name);
    if (!asset) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8", ...PAGE_HEADERS });
      response.end("Not found\n");
      return;
    }
    response.writeHead(200, {
      "content-type": asset.type,
      "content-length": asset.body.length,
      ...PAGE_HEADERS,
    });
    response.end(request.method === "HEAD" ? undefined : asset.body);
  });
  server.on("connection", (socket) => gate.admit(socket));
  server.on("upgrade", (request, socket: Socket, head) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (!path.endsWith("/session")) return refuseUpgrade(socket, "404 Not Found");
    if (!originAllowed(request.headers.origin, request.headers.host, options.origins)) {
      noisy(
        `parley web: refused a session from ${logEscape(clientAddress(addressOf(socket), request.headers["x-forwarded-for"], trusted))}: origin ${logEscape(request.headers.origin ?? "(none)", 100)} is not this page's`,
      );
      return refuseUpgrade(socket, "403 Forbidden");
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit("connection", ws, request));
  });
  server.on("clientError", (_error, socket: Socket) => socket.destroy());
  const port = await listenOn(server, options.port ?? 0, host);
  server.on("error", (error: Error) => noisy(`parley web: ${logEscape(error.message)}`));

  let closed: Promise<void> | undefined;
  return {
    host,
    port,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`,
    liveSessions: () => sessions.size(),
    threads,
    close() {
      closed ??= (async () => {
        const listening = new Promise<void>((resolve) => server.close(() => resolve()));
        await sessions.stopAll();
        for (const socket of sockets.clients) socket.terminate();
        sockets.close();
        server.closeAllConnections();
        await listening;
        await pool.close();
      })();
      return closed;
    },
  };
}
