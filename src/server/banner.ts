// The lines `parley serve` (and `node src/server/main.ts`) print first, and the loopback
// check behind their warning. Kept apart from main.ts, whose `import.meta.main` block must
// never end up inside the bundled CLI.
import { isIP } from "node:net";
import type { RunningServer } from "./index.ts";

/** 127.0.0.0/8, ::1 and localhost: only this machine can connect. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  if (bare.startsWith("::ffff:")) return isLoopback(bare.slice(7));
  return isIP(bare) === 4 && bare.startsWith("127.");
}

/**
 * Writes the lines a user copies into another shell (and returns them): the base URL and,
 * with demo data, one token per demo user. Warns on stderr when others can connect.
 */
export function printServeBanner(
  server: Pick<RunningServer, "url" | "host" | "demoUsers">,
  options: { demo?: boolean },
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  err: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): string[] {
  const lines = [`export PARLEY_BASE_URL=${server.url}`];
  if (options.demo) {
    for (const user of server.demoUsers) {
      lines.push(`export PARLEY_TOKEN=${user.token}  # ${user.username}`);
    }
  }
  for (const line of lines) out(line);
  const tokens = options.demo ? " with the demo tokens above" : "";
  if (!isLoopback(server.host)) {
    err(
      `warning: listening on ${server.host}, so other machines can connect${tokens}. Use --host 127.0.0.1 to stay on this machine.`,
    );
  } else if (server.host !== "127.0.0.1") {
    // Loopback, but not the default: said, as anything but the default is (--help).
    err(
      `warning: listening on ${server.host}, not 127.0.0.1: only this machine can connect${options.demo ? ", and anyone on it can sign in with the demo tokens above" : ""}.`,
    );
  }
  return lines;
}
