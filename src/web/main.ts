// `parley web`: the embedded API server and the web server together, the banner saying
// where to point a browser, and a clean stop on SIGINT, SIGTERM and SIGHUP.
import { join } from "node:path";
import { parleyPaths } from "../config.ts";
import { isLoopback } from "../server/banner.ts";
import type { DemoMode } from "../server/demo/worlds.ts";
import type { LogFormat } from "../server/logger.ts";
import { logStart, onSignals } from "../server/serve.ts";
import type { WebLimits } from "./server.ts";

export type WebCommandOptions = {
  host: string;
  port: number;
  /** Default: $XDG_DATA_HOME/parley/web.db (people sign in with their tokens). */
  db?: string;
  /** Straight in as a demo user: a world of one's own per visitor, or one shared. */
  demo: DemoMode | false;
  /** Origins besides the page's own that may open sessions (behind a proxy). */
  origins?: string[];
  /** Reverse proxies whose X-Forwarded-For names the visitor (--trust-proxy). */
  trustProxy?: string[];
  hostScript?: URL;
  threads?: number;
  /** Where the page's files are. */
  assets: URL;
  version?: string;
  logFormat?: LogFormat;
  logFile?: string | undefined;
  limits?: WebLimits;
  out?: (line: string) => void;
};

export async function runWeb(options: WebCommandOptions): Promise<void> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { createLogger } = await import("../server/logger.ts");
  const logger = createLogger({ format: options.logFormat, file: options.logFile });
  const err = (line: string) => logger.line(line);
  // As for parley ssh: sessions are drawn in true colour whatever this process's stdout is.
  const off = process.env.FORCE_COLOR === "0" || process.env.FORCE_COLOR === "false";
  if (!off) process.env.FORCE_COLOR = "3";
  const { startServer } = await import("../server/index.ts");
  const { DEFAULT_MAX_CONNECTIONS } = await import("../server/connections.ts");
  const { startWebServer } = await import("./server.ts");
  const paths = parleyPaths();
  const own = options.demo === "own";
  const maxSessions = options.limits?.maxSessions ?? 64;
  const worlds = own
    ? (await import("../server/demo/worlds.ts")).demoWorlds({
        start: startServer,
        maxWorlds: maxSessions,
        log: err,
      })
    : undefined;
  const apiConnections = Math.max(DEFAULT_MAX_CONNECTIONS, 8 * maxSessions);
  const api = await startServer({
    // The API stays on this machine: only the web server faces out.
    host: "127.0.0.1",
    port: 0,
    // With worlds of their own, this one only names the demo users.
    db: own ? ":memory:" : (options.db ?? join(paths.data, "web.db")),
    demo: options.demo !== false,
    demoReplies: false,
    connections: { maxConnections: apiConnections, maxPerAddress: apiConnections },
    log: err,
    access: logger.access,
  });
  let web: Awaited<ReturnType<typeof startWebServer>>;
  try {
    web = await startWebServer({
      host: options.host,
      port: options.port,
      assets: options.assets,
      access:
        options.demo === false
          ? { kind: "token", url: api.url }
          : { kind: "demo", url: api.url, users: api.demoUsers, world: worlds?.enter },
      log: err,
      keepDir: join(paths.state, "web-unsent"),
      hostScript: options.hostScript,
      hostThreads: options.threads,
      ...(options.origins ? { origins: options.origins } : {}),
      ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
      ...options.limits,
    });
  } catch (error) {
    await worlds?.close();
    await api.close();
    throw error;
  }

  const { stopOnce, threadsLine } = await import("../ssh/main.ts");
  onSignals(
    logger,
    stopOnce(
      async () => {
        await web.close();
        await worlds?.close();
        await api.close();
      },
      (signal) => {
        logger.event("info", `parley web stopped (${signal})`, { signal });
        logger.close();
      },
    ),
  );
  logStart(logger, "web", api, options.version, { web: web.url });

  out(`parley web listening on ${web.url}`);
  out(
    options.demo === "own"
      ? "anyone who opens it is in a demo world of their own, whose bots answer them alone (--demo)"
      : options.demo === "shared"
        ? "anyone who opens it joins the one shared demo world (--demo shared)"
        : "people sign in with their token: parley users token NAME --db <this database>",
  );
  out(threadsLine(web.threads));
  if (!isLoopback(web.host)) {
    err(
      `warning: listening on ${web.host}, so other machines can connect. Use --host 127.0.0.1 to stay on this machine.`,
    );
  }
}
