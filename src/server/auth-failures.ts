// Wrong tokens, per address: each logged (rate-limited, so a flood cannot fill the disk;
// the address is what fail2ban and its like look for) and, past the first few, answered
// ever more slowly, as `parley ssh` answers failed sign-ins. Tokens are 192 random bits, so
// guessing is hopeless; this is for the operator to see it, and to make it cost.
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { logEscape } from "../log-escape.ts";
import { failureTracker } from "../ssh/failures.ts";
import { addressOf } from "../ssh/gate.ts";
import { limitedLog } from "../ssh/log-limit.ts";

export type AuthFailures = { failed(c: Context): Promise<void> };

/** The address a request came from, as the connection caps count it. */
export function remoteAddress(c: Context): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? addressOf(incoming.socket) : "?";
}

export function authFailures(log: (line: string) => void): AuthFailures {
  const tracker = failureTracker();
  const noisy = limitedLog(log, { name: "parley serve" });
  return {
    failed(c) {
      const address = remoteAddress(c);
      const wait = tracker.delayFor(address);
      noisy(
        `parley serve: authentication failed from ${logEscape(address)}: unknown token${wait > 0 ? `; answered after ${wait} ms` : ""}`,
      );
      return tracker.failed(address);
    },
  };
}
