// A small runnable for tests and benchmarks, and the banner `parley serve` prints:
//   node src/server/main.ts --db PATH --port 0 --demo
import { isIP } from "node:net";
import { parseArgs } from "node:util";
import { type RunningServer, startServer } from "./index.ts";

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
  server: RunningServer,
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
  if (!isLoopback(server.host)) {
    const tokens = options.demo ? " with the demo tokens above" : "";
    err(
      `warning: listening on ${server.host}, so other machines can connect${tokens}. Use --host 127.0.0.1 to stay on this machine.`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "0" },
      db: { type: "string", default: ":memory:" },
      demo: { type: "boolean", default: false },
      "no-demo-replies": { type: "boolean", default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port must be a number from 0 to 65535, not "${values.port}".\n`);
    process.exit(2);
  }
  const server = await startServer({
    host: values.host,
    port,
    db: values.db,
    demo: values.demo,
    demoReplies: values.demo && !values["no-demo-replies"],
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Before the banner: whoever reads it may signal at once.
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  printServeBanner(server, { demo: values.demo });
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    process.stderr.write(`parley server: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
