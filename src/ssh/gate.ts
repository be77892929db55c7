// Who may hold a TCP connection to `parley ssh`, from the moment it is accepted: at most
// `maxConnections` at once and `maxPerAddress` from one address, and each one given
// `signInMs` to sign in (if given). `parley serve` holds its HTTP connections with it too. (ssh2's own timer starts only after the client's first line, and
// it caps nothing: 21,000 silent sockets once used up the process's file descriptors.)
// Past a cap the connection is closed at once, with one (rate-limited) log line.
import type { Socket } from "node:net";
import { logEscape } from "../log-escape.ts";
import type { LimitedLog } from "./log-limit.ts";

export type GateOptions = {
  maxConnections: number;
  maxPerAddress: number;
  signInMs?: number;
  log: LimitedLog;
  /** Who says so in the log; default "parley ssh". */
  name?: string;
  /** Addresses held to the total cap alone (a trusted reverse proxy's). */
  uncapped?: (address: string) => boolean;
};

/** The address a connection counts against: an IPv4 address mapped into IPv6 is itself. */
export function addressOf(socket: Socket): string {
  return (socket.remoteAddress ?? "?").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
}

export function connectionGate(options: GateOptions) {
  const perAddress = new Map<string, number>();
  const timers = new Map<Socket, NodeJS.Timeout>();
  let total = 0;
  const name = options.name ?? "parley ssh";

  return {
    /** Counts a new connection in, or closes it (false) when a cap is reached. */
    admit(socket: Socket): boolean {
      const address = addressOf(socket);
      const from = perAddress.get(address) ?? 0;
      const full =
        total >= options.maxConnections
          ? `${options.maxConnections} connections in all`
          : from >= options.maxPerAddress && !options.uncapped?.(address)
            ? `${options.maxPerAddress} connections from this address`
            : undefined;
      if (full) {
        options.log(`${name}: refused a connection from ${logEscape(address)}: ${full}`);
        socket.on("error", () => {});
        socket.destroy();
        return false;
      }
      total++;
      perAddress.set(address, from + 1);
      const signInMs = options.signInMs;
      if (signInMs !== undefined) {
        const timer = setTimeout(() => {
          options.log(
            `${name}: closed a connection from ${logEscape(address)}: not signed in within ${Math.round(signInMs / 1000)} s`,
          );
          socket.destroy();
        }, signInMs);
        timer.unref();
        timers.set(socket, timer);
      }
      socket.once("close", () => {
        clearTimeout(timers.get(socket));
        timers.delete(socket);
        total--;
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
      });
      return true;
    },
    /** The connection signed in: it may stay. */
    signedIn(socket: Socket): void {
      clearTimeout(timers.get(socket));
      timers.delete(socket);
    },
    /** Closes every connection that has not signed in (the server is stopping). */
    closeWaiting(): void {
      for (const socket of timers.keys()) socket.destroy();
    },
    connections: () => total,
  };
}
