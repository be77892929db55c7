// The server as a process of its own (`parley serve`, `node src/server/main.ts`): start,
// log a start line, print the banner before anything else, close cleanly on SIGINT or
// SIGTERM with a stop line, and reopen --log-file on SIGHUP (after logrotate moved it).
import { printServeBanner } from "./banner.ts";
import { type RunningServer, type StartOptions, startServer } from "./index.ts";
import { createLogger, type LogFormat, type Logger } from "./logger.ts";

export type ServeOptions = Omit<StartOptions, "log" | "access"> & {
  demo: boolean;
  /** parley's version, for the start line. */
  version?: string;
  logFormat?: LogFormat;
  logFile?: string | undefined;
  /** An access line per request (default true); off for the benchmarks' servers. */
  accessLog?: boolean;
};

/** SIGINT and SIGTERM stop, with a stop line; SIGHUP reopens the log file. */
export function onSignals(logger: Logger, stop: (signal: string) => void): void {
  // `on`, not `once`: a second signal during the stop must not kill the process unlogged.
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGHUP", () => {
    try {
      if (logger.reopen()) logger.event("info", "reopened the log file (SIGHUP)");
      else logger.event("info", "SIGHUP: no --log-file to reopen; still running");
    } catch (error) {
      process.stderr.write(`parley: cannot reopen the log file: ${(error as Error).message}\n`);
    }
  });
}

export async function serveUntilSignal(options: ServeOptions): Promise<RunningServer> {
  const logger = createLogger({ format: options.logFormat, file: options.logFile });
  // The banner comes first (people copy it); what the server says before it waits.
  let held: string[] | null = [];
  const server = await startServer({
    ...options,
    log: (line) => (held ? held.push(line) : logger.line(line)),
    ...(options.accessLog === false ? {} : { access: logger.access }),
  }).catch((error: unknown) => {
    logger.close();
    throw error;
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => {
        logger.event("info", `parley serve stopped (${signal})`, { signal });
        logger.close();
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  // Before the banner: whoever reads it may signal at once.
  onSignals(logger, stop);
  printServeBanner(server, { demo: options.demo }, undefined, (line) => logger.line(line));
  logStart(logger, "serve", server, options.version);
  for (const line of held ?? []) logger.line(line);
  held = null;
  if (!options.demo && (await server.people()).length === 0) {
    logger.event(
      "warn",
      "parley serve: nobody can sign in yet: add people with parley users add NAME (same --db)",
    );
  }
  return server;
}

/** The start line: what runs, on what, where. The store is named without credentials. */
export function logStart(
  logger: Logger,
  command: "serve" | "ssh" | "web",
  server: RunningServer,
  version: string | undefined,
  more: Record<string, string> = {},
): void {
  const fields = {
    version: version ?? "unknown",
    schema: server.schema,
    store: server.store,
    api: server.url,
    ...(server.metricsUrl ? { metrics: server.metricsUrl } : {}),
    ...more,
  };
  logger.event("info", `parley ${command} started`, fields);
}
