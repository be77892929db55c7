// The embedded reference server: `startServer` is what `npm start`, `parley serve` and the
// tests use.
import { createServer } from "node:http";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { parleyPaths } from "../paths.ts";
import { limitedLog } from "../ssh/log-limit.ts";
import { createApp, type FaultHook } from "./app.ts";
import { type ConnectionLimits, capConnections, httpServerOptions } from "./connections.ts";
import { createPresence } from "./demo/presence.ts";
import { createDemoReplier, type DemoReplier } from "./demo/replies.ts";
import { seedDemoConversations } from "./demo/seed.ts";
import { contactId, DEMO_USERNAMES, type DemoUser, ensureDemoUsers } from "./demo/users.ts";
import type { Services } from "./env.ts";
import { createEventHub, type EventHub, type EventOptions } from "./events/hub.ts";
import { createDatabaseHealth, type DatabaseHealth, isUnreachable } from "./health.ts";
import { createIdMaker } from "./ids.ts";
import { listenOn } from "./listen.ts";
import type { Metrics, serveMetrics } from "./metrics.ts";
import { type AccessLine, noMetrics } from "./ops-routes.ts";
import { createPageCache, noPageCache } from "./page-cache.ts";
import { DEFAULT_RATE_LIMIT, type RateLimit } from "./rate-limit.ts";
import { endAccessOnEvents } from "./revocation.ts";
import { DEFAULT_MAX_UPLOAD, DEFAULT_UPLOAD_QUOTA, type UploadLimits } from "./routes/files.ts";
import { isPostgresUrl, openStore, type Store } from "./store/index.ts";
import { newToken } from "./tokens.ts";

export type { DemoUser } from "./demo/users.ts";

export type RunningServer = {
  url: string;
  host: string;
  port: number;
  /** With `demo`: the demo users and their tokens (for the banner); else none. */
  demoUsers: DemoUser[];
  /** The /v1/events streams this instance holds now. */
  eventStreams(): number;
  /** Ends the streams whose token is no longer valid (call it when tokens change). */
  revalidateTokens(): Promise<void>;
  /** Someone was removed (`parley users remove`, by any process): told at once. */
  onRemoved(listener: (username: string) => void): void;
  /** The database's id, sent as `Parley-Server-Id` with every answer. */
  serverId: string;
  /** What the start line names: the schema version and the store, without credentials. */
  schema: number;
  store: string;
  /** This server's Prometheus metrics; `parley ssh` adds its sessions to them. */
  metrics: Metrics;
  /** With `metrics`: where GET /metrics is served. */
  metricsUrl?: string;
  /**
   * Everyone who may sign in now (not removed), each with a token valid in this process
   * only, kept in memory: how `parley ssh` signs its sessions in.
   */
  people(): Promise<DemoUser[]>;
  close(): Promise<void>;
};

export type StartOptions = {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /**
   * A SQLite file path (parent folders are created), ":memory:" (the default), or a
   * postgres:// URL: several servers on one PostgreSQL database serve the same users.
   */
  db?: string;
  /** Seed the demo users (into a database without users) and conversations (into one without any). */
  demo?: boolean;
  /** With `demo` on PostgreSQL: where the demo's tokens are kept; default parley's data folder. */
  demoTokensDir?: string;
  /** With `demo`: the demo conversations too (default true); false gives the demo users alone. */
  demoConversations?: boolean;
  /** Demo users answer messages; default true with `demo`. */
  demoReplies?: boolean;
  log?: (line: string) => void;
  /** Per token; `false` turns it off. Default 100 per second, bursts of 300. */
  rateLimit?: RateLimit | false;
  /** How long a demo reply takes, in ms. Default [2000, 6000]. */
  demoReplyDelayMs?: [number, number];
  /** For tests: called before each authenticated request; what it throws becomes a 500. */
  faults?: FaultHook;
  /** For tests: how often a PostgreSQL instance checks it still holds its owner lock. */
  ownerCheckMs?: number;
  /** For tests: the clock, in Unix seconds. */
  now?: () => number;
  /** Keep finished message pages until the data changes (default true); off to benchmark the uncached path. */
  pageCache?: boolean;
  /** /v1/events: keep-alive interval, per-stream buffer bound, streams per user. */
  events?: EventOptions;
  /** Connection caps and request timeouts (connections.ts). */
  connections?: ConnectionLimits;
  /** Serve GET /metrics on an address of its own. */
  metrics?: { host: string; port: number };
  /** Serve GET /metrics on the API's port too, behind this bearer token. */
  metricsToken?: string;
  /** One line per answered request (see ops-routes.ts); default none. */
  access?: (line: AccessLine) => void;
  /** POST /v1/files: its limits (default 25 MB a file, 1 GB a person); false: no uploads. */
  uploads?: Partial<UploadLimits> | false;
};

const CLOSE_GRACE_MS = 2000;
/** How soon a token that expired, was revoked or whose person was removed loses its streams. */
const TOKEN_SWEEP_MS = 5000;

/**
 * Every few seconds: expired tokens deleted, and the event streams whose token no longer
 * signs in (revoked, expired, removed by `parley users` from another process) ended.
 */
function sweepTokens(
  store: Store,
  hub: EventHub,
  now: () => number,
  log: (line: string) => void,
): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    store.accounts
      .dropExpired(now())
      .then(async (expired) => {
        if (expired > 0) log(`${expired} expired token${expired === 1 ? "" : "s"} deleted`);
        if (hub.streams() > 0) await hub.revalidate();
      })
      // The database is down: health.ts says so once; the next sweep tries again.
      .catch(() => {});
  }, TOKEN_SWEEP_MS);
  timer.unref();
  return timer;
}
const POSTGRES_POOL_SIZE = 10;
/** An upload unfinished this long was cut off (a request has 30 s): its chunks go. */
const UNFINISHED_UPLOAD_SECONDS = 600;

/** Deletes the uploads a stopped server or a lost connection left unfinished, hourly. */
function sweepUploads(store: Store, now: () => number): ReturnType<typeof setInterval> {
  const sweep = () => {
    store.files.dropUnfinished(now() - UNFINISHED_UPLOAD_SECONDS).catch(() => {});
  };
  sweep();
  const timer = setInterval(sweep, 60 * 60 * 1000);
  timer.unref();
  return timer;
}

/**
 * Where the demo's tokens are kept (demo/token-file.ts): beside a SQLite file; for
 * PostgreSQL in parley's data folder (or `demoTokensDir`), one file per database; none
 * for `:memory:`.
 */
function demoTokensFile(opts: StartOptions, serverId: string): string | undefined {
  const db = opts.db ?? ":memory:";
  if (isPostgresUrl(db)) {
    return join(opts.demoTokensDir ?? parleyPaths().data, `demo-tokens-${serverId}`);
  }
  return db === ":memory:" ? undefined : `${db}-demo-tokens`;
}

/** The store for a log line: a SQLite path, or PostgreSQL's host, port and database. */
export function describeStore(location: string): string {
  if (!isPostgresUrl(location)) return `sqlite ${location}`;
  try {
    const u = new URL(location);
    return `postgres ${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "postgres";
  }
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? "127.0.0.1";
  const log = opts.log ?? (() => {});
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  const store: Store = await openStore(opts.db ?? ":memory:", {
    create: true,
    poolSize: POSTGRES_POOL_SIZE,
    ownerCheckMs: opts.ownerCheckMs,
  });
  let replier: DemoReplier | undefined;
  let events: EventHub | undefined;
  let health: DatabaseHealth | undefined;
  let sweep: ReturnType<typeof setInterval> | undefined;
  let uploadSweep: ReturnType<typeof setInterval> | undefined;
  let metricsServer: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  try {
    // Without --demo a database starts empty: people are added with `parley users add`.
    // Tokens this process made (never stored) -> user id: the demo's, and the sessions'
    // of `parley ssh` (people() below).
    const localTokens = new Map<string, string>();
    const localTokenOf = new Map<string, string>();
    const demoTokenOf = new Map<string, string>();
    const demoToken = (userId: string) => {
      const token = newToken();
      localTokens.set(token, userId);
      demoTokenOf.set(userId, token);
      return token;
    };
    const demoUsers = opts.demo
      ? await ensureDemoUsers(store, now(), demoTokensFile(opts, store.serverId), demoToken)
      : [];
    if (opts.demo && opts.demoConversations !== false) {
      // The demo's conversations need the demo's people: not on a database of others.
      const present = new Set((await store.accounts.list()).map((a) => a.id));
      if (DEMO_USERNAMES.every((name) => present.has(contactId(name)))) {
        await seedDemoConversations(store, now());
      } else log("demo: no demo conversations, since this database has other people");
    }
    const newId = createIdMaker();
    const presence = createPresence(store, now);
    if (opts.demo && (opts.demoReplies ?? true)) {
      replier = createDemoReplier({
        store,
        now,
        newId,
        presence,
        delayMs: opts.demoReplyDelayMs ?? [2000, 6000],
        random: Math.random,
        log,
      });
      // Every instance hears of every message sent; only the leader answers.
      const answering = replier;
      await store.onSent((event) => {
        if (store.isLeader()) answering.onMessageSent(event);
      });
    }
    health = createDatabaseHealth(store, log);
    const checked = health;
    // The hub's failures during an outage are the outage: said once by health.ts, not
    // again at every keep-alive, even when reported after the database came back. One
    // while the database answers is said as it is.
    const hubLog = (line: string, error?: unknown) => {
      void checked.check().then((up) => up && !isUnreachable(error) && log(line));
    };
    events = createEventHub(store, replier && presence, hubLog, opts.events, localTokens);
    const removedListeners: ((username: string) => void)[] = [];
    const forget = (tokenOf: Map<string, string>, userId: string) => {
      const token = tokenOf.get(userId);
      if (token !== undefined) localTokens.delete(token);
      tokenOf.delete(userId);
    };
    // Every token people() made, by whose it is, until their removal's event has been
    // heard: people() may drop one from localTokens before that (its look at the accounts
    // came first), and the session's stream, ended with the removal, is still not logged.
    const sessionTokens = new Map<string, string>();
    endAccessOnEvents(events, hubLog, {
      dropDemoToken: (userId) => forget(demoTokenOf, userId),
      removed(userId, username) {
        forget(localTokenOf, userId);
        for (const [token, owner] of sessionTokens)
          if (owner === userId) sessionTokens.delete(token);
        for (const listener of removedListeners) listener(username);
      },
      isSessionToken: (token) => sessionTokens.has(token),
    });
    await events.start();
    const hub = events;
    sweep = sweepTokens(store, hub, now, log);
    const uploads = opts.uploads === false ? false : uploadLimits(opts.uploads);
    if (uploads) uploadSweep = sweepUploads(store, now);
    const services: Services = {
      store,
      pages: opts.pageCache === false ? noPageCache : createPageCache(store.version),
      now,
      newId,
      presence,
      // Every instance tells the replier, which runs on the instances started with --demo.
      onMessageSent: (message) => store.publishSent(message),
      localTokens,
      events: hub,
    };
    // prom-client is loaded only for a server whose metrics someone reads.
    const scraped = opts.metrics !== undefined || opts.metricsToken !== undefined;
    const prometheus = scraped ? await import("./metrics.ts") : undefined;
    const metrics =
      prometheus?.createMetrics({
        store,
        health,
        streams: () => hub.streams(),
        events: hub,
        poolMax: store.kind === "postgres" ? POSTGRES_POOL_SIZE : undefined,
      }) ?? noMetrics;
    const app = createApp(services, {
      serverId: store.serverId,
      rateLimit: opts.rateLimit ?? DEFAULT_RATE_LIMIT,
      faults: opts.faults,
      log,
      ops: { health, metrics, metricsToken: opts.metricsToken, access: opts.access },
      uploads,
    });
    if (prometheus && opts.metrics) {
      metricsServer = await prometheus.serveMetrics(metrics, opts.metrics.host, opts.metrics.port);
    }
    const server = createServer(httpServerOptions(opts.connections), getRequestListener(app.fetch));
    capConnections(server, opts.connections ?? {}, limitedLog(log, { name: "parley serve" }));
    const port = await listenOn(server, opts.port ?? 0, host);
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    log(`parley server listening on ${url}`);

    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= new Promise<void>((resolve) => {
        replier?.close();
        hub.close();
        clearInterval(sweep);
        clearInterval(uploadSweep);
        health?.close();
        metricsServer?.close();
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        // A keep-alive connection that finishes a response after close() turns idle
        // later; keep closing idle ones so it does not hold the close for the grace time.
        const idle = setInterval(() => server.closeIdleConnections(), 25);
        server.close(() => {
          clearTimeout(force);
          clearInterval(idle);
          store.close().then(resolve, resolve);
        });
        server.closeIdleConnections();
      });
      return closing;
    };
    const people = async (): Promise<DemoUser[]> => {
      const accounts = (await store.accounts.list()).filter((a) => a.removed_at === null);
      // Someone removed meanwhile: the token this process gave them stops working.
      const present = new Set(accounts.map((a) => a.id));
      for (const [id, token] of localTokenOf) {
        if (present.has(id)) continue;
        localTokenOf.delete(id);
        localTokens.delete(token);
      }
      return accounts.map((a) => {
        let token = localTokenOf.get(a.id);
        if (token === undefined) {
          token = newToken();
          localTokenOf.set(a.id, token);
          localTokens.set(token, a.id);
          sessionTokens.set(token, a.id);
        }
        return { username: a.username, token, contactId: a.id };
      });
    };
    return {
      url,
      host,
      port,
      demoUsers,
      serverId: store.serverId,
      schema: store.schema,
      store: describeStore(opts.db ?? ":memory:"),
      metrics,
      ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
      people,
      eventStreams: () => hub.streams(),
      revalidateTokens: () => hub.revalidate(),
      onRemoved: (listener) => void removedListeners.push(listener),
      close,
    };
  } catch (error) {
    replier?.close();
    events?.close();
    clearInterval(sweep);
    clearInterval(uploadSweep);
    health?.close();
    await metricsServer?.close();
    await store.close();
    throw error;
  }
}

function uploadLimits(given: Partial<UploadLimits> = {}): UploadLimits {
  return {
    maxBytes: given.maxBytes ?? DEFAULT_MAX_UPLOAD,
    quotaBytes: given.quotaBytes ?? DEFAULT_UPLOAD_QUOTA,
  };
}
