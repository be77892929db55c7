// A small runnable for tests and benchmarks, and the banner `parley serve` prints:
//   node src/server/main.ts --db PATH --port 0 --demo
import { parseArgs } from "node:util";
import { serveUntilSignal } from "./serve.ts";

export { isLoopback, printServeBanner } from "./banner.ts";

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
  await serveUntilSignal({
    host: values.host,
    port,
    db: values.db,
    demo: values.demo,
    demoReplies: values.demo && !values["no-demo-replies"],
    // The benchmarks' servers: a line per request would be most of their output and work.
    accessLog: false,
  });
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    // A database that cannot be used is one line (DatabaseOpenError), as in src/cli.ts.
    const expected = (error as { expected?: boolean }).expected === true;
    const text = expected ? (error as Error).message : ((error as Error).stack ?? String(error));
    process.stderr.write(`parley server: ${text}\n`);
    process.exit(1);
  });
}
