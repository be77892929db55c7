// `parley serve` in the open: at most `maxConnections` TCP connections at once and
// `maxPerAddress` from one address (the gate `parley ssh` uses; past a cap a connection is
// closed at once, with a rate-limited log line), a request's headers within 10 s and all of
// it, body included, within 30 s (Node's headersTimeout and requestTimeout, checked every
// second rather than every 30). Once a request is in, its answer may take as long as it
// takes: an event stream is one answer that lasts.
import type { Server, ServerOptions } from "node:http";
import { connectionGate } from "../ssh/gate.ts";
import type { LimitedLog } from "../ssh/log-limit.ts";

export type ConnectionLimits = {
  /** Default 1000. */
  maxConnections?: number;
  /** Default 100; behind a reverse proxy every connection comes from the proxy's address. */
  maxPerAddress?: number;
  /** Default 10 s. */
  headersTimeoutMs?: number;
  /** Default 30 s. */
  requestTimeoutMs?: number;
};

/**
 * How long an idle kept-alive connection stays open (Node's default, said here because a
 * reverse proxy must close its idle connections to parley sooner: one it reuses just as
 * parley closes it fails the request it carried, a 502 for a send through nginx).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export const DEFAULT_MAX_CONNECTIONS = 1000;
export const DEFAULT_MAX_PER_ADDRESS = 100;

export function httpServerOptions(limits: ConnectionLimits = {}): ServerOptions {
  const headersTimeout = limits.headersTimeoutMs ?? 10_000;
  return {
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    headersTimeout,
    requestTimeout: Math.max(headersTimeout, limits.requestTimeoutMs ?? 30_000),
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
  };
}

/** Closes connections past the caps as they come. */
export function capConnections(server: Server, limits: ConnectionLimits, log: LimitedLog): void {
  const gate = connectionGate({
    maxConnections: limits.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxPerAddress: limits.maxPerAddress ?? DEFAULT_MAX_PER_ADDRESS,
    log,
    name: "parley serve",
  });
  server.on("connection", (socket) => gate.admit(socket));
}
