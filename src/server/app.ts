// The Hono app: authentication, limits, the two resource routers, and one place that turns
// every failure into the contract's flat error body.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { MAX_BODY_BYTES } from "../api/schema.ts";
import { escapeForLog } from "../log-escape.ts";
import { authenticate, rateLimit } from "./auth.ts";
import { authFailures } from "./auth-failures.ts";
import type { AppEnv, Services } from "./env.ts";
import { HttpError, internalError } from "./errors.ts";
import { conditionalGets } from "./etag.ts";
import { unavailable } from "./health.ts";
import { idempotency } from "./idempotency.ts";
import { errorForLog } from "./log.ts";
import { addOpsRoutes, type Ops } from "./ops-routes.ts";
import type { RateLimit } from "./rate-limit.ts";
import { errorJson } from "./respond.ts";
import { contactRoutes } from "./routes/contacts.ts";
import { conversationRoutes } from "./routes/conversations.ts";
import { eventRoutes } from "./routes/events.ts";
import { downloadRoutes, type UploadLimits, uploadRoutes } from "./routes/files.ts";
import { messageRoutes } from "./routes/messages.ts";

/** Called before every authenticated request; tests throw from it to see a 500. */
export type FaultHook = (request: { method: string; path: string }) => void;

export type AppOptions = {
  /** Sent with every answer (Parley-Server-Id): clients keep their unsent work per server. */
  serverId: string;
  rateLimit: RateLimit | false;
  faults?: FaultHook | undefined;
  log: (line: string) => void;
  /** Health, readiness, metrics and access lines (ops-routes.ts). */
  ops?: Ops | undefined;
  /** POST /v1/files and its downloads; false: this server takes no uploads (404). */
  uploads: UploadLimits | false;
};

// The rest of the body is never read, so the connection cannot carry another request.
const tooLarge = () =>
  new HttpError(
    413,
    "payload_too_large",
    `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB. Send less at once.`,
    { headers: { Connection: "close" } },
  );

// Before the body limit, so that a client sending a file learns this, not the limit.
const noUploads = (): never => {
  throw new HttpError(
    404,
    "not_found",
    "This server takes no uploads (it was started with --max-upload 0): attach links instead.",
  );
};

export function createApp(services: Services, options: AppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.onError((error, c) => {
    if (error instanceof HttpError) return errorJson(c, error);
    if (error instanceof HTTPException && error.status === 413) return errorJson(c, tooLarge());
    // The database is down: logged once for the outage (health.ts), not per request.
    if (options.ops?.health.failed(error)) return errorJson(c, unavailable());
    const request = escapeForLog(`${c.req.method} ${c.req.path}`);
    options.log(`error: ${request}: ${errorForLog(error)}`);
    return errorJson(c, internalError());
  });
  app.notFound((c) =>
    errorJson(
      c,
      new HttpError(
        404,
        "not_found",
        `There is no ${c.req.path} here. The API's paths are /v1/messages and /v1/conversations.`,
      ),
    ),
  );

  // Set before the route runs: a header set after it would replace the response, and the
  // event stream's response has already gone out by then.
  app.use(async (c, next) => {
    c.header("Parley-Server-Id", options.serverId);
    await next();
  });
  if (options.ops) addOpsRoutes(app, options.ops);
  // A file's URL is its capability: fetched without a token, by whoever was given it.
  if (options.uploads) app.route("/v1/files", downloadRoutes(services));
  app.use(authenticate(services, authFailures(options.log)));
  if (options.rateLimit) app.use(rateLimit(options.rateLimit));
  const faults = options.faults;
  if (faults) {
    app.use(async (c, next) => {
      faults({ method: c.req.method, path: c.req.path });
      await next();
    });
  }
  // Before the 1 MiB body limit: an upload streams in under a limit of its own.
  if (options.uploads) app.route("/v1/files", uploadRoutes(services, options.uploads));
  else app.all("/v1/files", noUploads);
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw tooLarge();
    },
  });
  app.use((c, next) => {
    if (c.req.method !== "POST" && c.req.method !== "PUT") return next();
    // With a Content-Length the header says it all, and the body is then read straight
    // from the socket; hono's bodyLimit would wrap it in a web stream first.
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding")) return limitBody(c, next);
    if (Number(length) > MAX_BODY_BYTES) throw tooLarge();
    return next();
  });
  app.use(idempotency(services));
  app.use(conditionalGets);

  app.route("/v1/messages", messageRoutes(services));
  app.route("/v1/conversations", conversationRoutes(services));
  app.route("/v1/events", eventRoutes(services));
  app.route("/v1/contacts", contactRoutes(services));
  return app;
}
