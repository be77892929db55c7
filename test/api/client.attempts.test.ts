// Edges of the request attempt that the retry and timeout rules must keep: every attempt gets
// its own timeout, a body that breaks off counts as a lost connection, and exactly the statuses
// of the rule are retried (not the other ones an HTTP library may retry by default).
import { afterEach, describe, expect, it } from "vitest";
import { type ApiOptions, createApi } from "../../src/api/client.ts";
import { type ApiError, isApiError } from "../../src/api/errors.ts";
import {
  conversation,
  type ForeignServer,
  type Handler,
  json,
  silent,
  startForeignServer,
} from "./foreign-server.ts";

const servers: ForeignServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...handlers: Handler[]) {
  const server = await startForeignServer(...handlers);
  servers.push(server);
  return server;
}

function api(server: { url: string }, options: Partial<ApiOptions> = {}) {
  return createApi({ baseUrl: server.url, token: "t", retryDelayMs: 1, ...options });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return error;
    throw new Error(`expected an ApiError, got ${String(error)}`);
  }
  throw new Error("expected the call to fail");
}

/** Sends the headers and half a body, then drops the connection. */
const brokenBody: Handler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"has_more": false, "da');
  setTimeout(() => res.socket?.destroy(), 20);
};

const status = (code: number) => json(code, { code: "x", message: `Status ${code}.` });

describe("every attempt", () => {
  it("times out a retry too, not only the first attempt", async () => {
    const server = await serve(status(503), silent);
    const started = Date.now();
    const error = await failure(api(server, { timeoutMs: 300, retries: 1 }).conversations.list());
    expect(error.code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(server.seen).toHaveLength(2);
  });

  it("retries a GET whose body broke off, as a lost connection", async () => {
    const server = await serve(brokenBody, json(200, { has_more: false, data: [] }));
    const page = await api(server).conversations.list();
    expect(page.data).toEqual([]);
    expect(server.seen).toHaveLength(2);
  });

  it("does not retry a PUT whose body broke off", async () => {
    const server = await serve(brokenBody, json(200, conversation("c")));
    const error = await failure(api(server).conversations.update("c", { is_muted: true }));
    expect(error).toMatchObject({ status: 0, code: "network_error" });
    expect(server.seen).toHaveLength(1);
  });
});

describe("the statuses retried", () => {
  it("retries every 5xx, also those a library leaves out (501, 505, 599)", async () => {
    for (const code of [501, 505, 599]) {
      const server = await serve(status(code), json(200, conversation("c")));
      await api(server).conversations.get("c");
      expect(server.seen).toHaveLength(2);
    }
  });

  it("does not retry 408, 409 or 425", async () => {
    for (const code of [408, 409, 425]) {
      const server = await serve(status(code), json(200, conversation("c")));
      expect((await failure(api(server).conversations.get("c"))).status).toBe(code);
      expect(server.seen).toHaveLength(1);
    }
  });
});
