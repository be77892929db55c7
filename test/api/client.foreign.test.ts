// The client against servers that are not ours: tiny node:http servers on real sockets that
// answer like a foreign server, a proxy, a dead host or a hung one.
import { afterEach, describe, expect, it } from "vitest";
import { type ApiOptions, createApi } from "../../src/api/client.ts";
import { ApiError } from "../../src/api/errors.ts";
import { failure } from "./failure.ts";
import {
  closedPort,
  conversation,
  type ForeignServer,
  type Handler,
  json,
  message,
  silent,
  startForeignServer,
  text,
} from "./foreign-server.ts";

const servers: ForeignServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...handlers: Parameters<typeof startForeignServer>) {
  const server = await startForeignServer(...handlers);
  servers.push(server);
  return server;
}

function api(server: { url: string }, options: Partial<ApiOptions> = {}) {
  return createApi({ baseUrl: server.url, token: "tok_123", retryDelayMs: 1, ...options });
}

describe("requests as sent on the wire", () => {
  it("sends the token, asks for JSON, and encodes list parameters in the query", async () => {
    const server = await serve(json(200, { has_more: false, data: [] }));
    const client = api(server);
    await client.messages.list({
      conversation_id: "conv 1/ä",
      limit: 5,
      starting_after: "msg_9",
    });
    await client.conversations.list({
      limit: 20,
      muted: true,
      archived: false,
      pinned: true,
      group_id: "grp_1",
      ending_before: "conv_2",
    });
    await client.messages.list();
    const [messages, conversations, bare] = server.seen;
    expect(messages?.method).toBe("GET");
    expect(messages?.url).toBe(
      "/v1/messages?conversation_id=conv%201%2F%C3%A4&limit=5&starting_after=msg_9",
    );
    expect(messages?.headers.authorization).toBe("Bearer tok_123");
    expect(messages?.headers.accept).toBe("application/json");
    expect(conversations?.url).toBe(
      "/v1/conversations?limit=20&muted=true&archived=false&pinned=true&group_id=grp_1&ending_before=conv_2",
    );
    expect(bare?.url).toBe("/v1/messages");
  });

  it("sends bodies as bracket-notation forms, with only the endpoint's parameters", async () => {
    const server = await serve((req, res) =>
      json(200, req.url.startsWith("/v1/messages") ? message("msg_1") : conversation("c"))(
        req,
        res,
      ),
    );
    const client = api(server);
    await client.messages.send(
      {
        conversation_id: "conv_1",
        message: "hi there",
        attachments: [{ file_url: "https://x.test/a.png", filename: "a.png" }],
        // Not a parameter of the endpoint: never sent.
        ...({ extra: "nope" } as object),
      },
      { idempotencyKey: "key-1" },
    );
    await client.messages.update("msg_1", {
      message: "edited",
      reactions: { thumbsup: ["alice", "bob"], heart: [] },
      attachments: [
        { file_url: "https://x.test/b.pdf", file_type: "application/pdf", file_size: 10 },
      ],
    });
    await client.conversations.update("conv_1", {
      pinned_message_id: null,
      is_pinned: true,
      is_muted: false,
      archived_at: null,
    });
    await client.conversations.update("conv_1", {
      archived_at: 1_700_000_000,
      pinned_message_id: "msg_1",
    });
    await client.conversations.create({ group_id: "grp_1" });
    const [send, update, unset, set, create] = server.seen;
    expect(send?.method).toBe("POST");
    expect(send?.url).toBe("/v1/messages");
    expect(send?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(send?.headers["idempotency-key"]).toBe("key-1");
    expect(send?.body).toBe(
      "conversation_id=conv_1&message=hi%20there" +
        "&attachments[0][file_url]=https%3A%2F%2Fx.test%2Fa.png&attachments[0][filename]=a.png",
    );
    expect(update?.method).toBe("PUT");
    expect(update?.url).toBe("/v1/messages/msg_1");
    expect(update?.headers["idempotency-key"]).toBeUndefined();
    expect(update?.body).toBe(
      "message=edited&reactions[thumbsup][]=alice&reactions[thumbsup][]=bob&reactions[heart]=" +
        "&attachments[0][file_url]=https%3A%2F%2Fx.test%2Fb.pdf" +
        "&attachments[0][file_type]=application%2Fpdf&attachments[0][file_size]=10",
    );
    expect(unset?.body).toBe("pinned_message_id=&is_pinned=true&is_muted=false&archived_at=");
    expect(set?.body).toBe("pinned_message_id=msg_1&archived_at=1700000000");
    expect(create?.method).toBe("POST");
    expect(create?.body).toBe("group_id=grp_1");
    expect(create?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives every send an Idempotency-Key: a fresh UUID when the caller has none", async () => {
    const server = await serve(json(200, message("msg_1")));
    const client = api(server);
    await client.messages.send({ conversation_id: "c", message: "a" });
    await client.messages.send({ conversation_id: "c", message: "a" });
    const [a, b] = server.seen.map((r) => r.headers["idempotency-key"]);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });

  it("leaves out an empty attachments list, and refuses a number that cannot be sent", async () => {
    const server = await serve(json(200, message("m")));
    const client = api(server);
    await client.messages.update("m", { attachments: [] });
    expect(server.seen[0]?.body).toBe("");
    expect(await failure(client.messages.list({ limit: Number.NaN }))).toMatchObject({
      status: 0,
      code: "parameter_invalid",
      message: "Cannot send NaN as a form value.",
    });
    expect(server.seen).toHaveLength(1);
  });

  it("encodes ids in paths and never parses them", async () => {
    const server = await serve((req, res) =>
      json(200, req.url.includes("messages") ? message("a/b c?d#e") : conversation("x"))(req, res),
    );
    const client = api(server);
    const got = await client.messages.get("a/b c?d#e");
    await client.conversations.get("../v1/secret");
    await client.messages.update("%2F", {});
    expect(got.id).toBe("a/b c?d#e");
    expect(server.seen.map((r) => r.url)).toEqual([
      "/v1/messages/a%2Fb%20c%3Fd%23e",
      "/v1/conversations/..%2Fv1%2Fsecret",
      "/v1/messages/%252F",
    ]);
    expect(server.seen[2]?.body).toBe("");
  });

  it("keeps a path prefix of the base URL and ignores a trailing slash", async () => {
    const server = await serve(json(200, { has_more: false, data: [] }));
    await createApi({ baseUrl: `${server.url}/api/`, token: "t" }).conversations.list();
    expect(server.seen[0]?.url).toBe("/api/v1/conversations");
  });

  it("uses the fetch it is given", async () => {
    const server = await serve(json(200, conversation("c")));
    const urls: string[] = [];
    const client = api(server, {
      fetch: (input, init) => {
        urls.push(String(input));
        return fetch(input, init);
      },
    });
    await client.conversations.get("c");
    expect(urls).toEqual([`${server.url}/v1/conversations/c`]);
  });
});

describe("tolerant reading of a foreign server's answers", () => {
  it("reads millisecond timestamps, numeric ids and unknown fields", async () => {
    const server = await serve(
      json(200, {
        object: "list",
        has_more: false,
        data: [
          {
            ...message("ignored"),
            id: 101,
            conversation_id: 7,
            created_at: 1_700_000_123_456,
            read_at: 1_700_000_200_000,
            contact: { id: 3, username: "zed", created_at: 1_600_000_000_000, color: "red" },
            livemode: true,
          },
        ],
      }),
    );
    const page = await api(server).messages.list();
    expect(page.data[0]).toMatchObject({
      id: "101",
      conversation_id: "7",
      created_at: 1_700_000_123,
      read_at: 1_700_000_200,
      contact: { id: "3", username: "zed", created_at: 1_600_000_000 },
    });
    expect(page.data[0]).not.toHaveProperty("livemode");
  });

  it("accepts 204 with no body for a delete", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const client = api(server);
    expect(await client.messages.delete("msg/1")).toEqual({ id: "msg/1", deleted: true });
    expect(await client.conversations.delete("conv_1")).toEqual({ id: "conv_1", deleted: true });
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "DELETE /v1/messages/msg%2F1",
      "DELETE /v1/conversations/conv_1",
    ]);
  });

  it("accepts a delete answered with {id, deleted} or with the deleted object", async () => {
    const server = await serve(
      json(200, { id: 5, deleted: true, object: "message" }),
      json(200, message("msg_2")),
    );
    const client = api(server);
    expect(await client.messages.delete("5")).toEqual({ id: "5", deleted: true });
    expect(await client.messages.delete("msg_2")).toEqual({ id: "msg_2", deleted: true });
  });

  it("reads Stripe's nested error body", async () => {
    const server = await serve(
      json(404, {
        error: {
          type: "invalid_request_error",
          code: "resource_missing",
          message: "No such message: 'msg_x'.",
          param: "id",
        },
      }),
    );
    const error = await failure(api(server).messages.get("msg_x"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      type: "invalid_request",
      code: "resource_missing",
      message: "No such message: 'msg_x'.",
      param: "id",
    });
  });

  it("reads the flat error body, keeping the contract's type", async () => {
    const server = await serve(
      json(400, {
        type: "invalid_request",
        code: "parameter_invalid",
        message: "limit must be 1 to 100.",
        param: "limit",
      }),
    );
    const error = await failure(api(server).messages.list({ limit: 1000 }));
    expect(error).toMatchObject({
      status: 400,
      type: "invalid_request",
      code: "parameter_invalid",
      message: "limit must be 1 to 100.",
      param: "limit",
    });
    expect(error.name).toBe("ApiError");
    expect(error).toBeInstanceOf(Error);
  });

  it("fills the code and a message from the status when the body says nothing", async () => {
    const server = await serve(text(401, ""), text(403, "", "text/plain"), json(404, {}));
    const client = api(server);
    expect(await failure(client.conversations.get("a"))).toMatchObject({
      status: 401,
      code: "unauthenticated",
      message: expect.stringMatching(/token/),
    });
    expect(await failure(client.conversations.get("b"))).toMatchObject({
      status: 403,
      code: "forbidden",
    });
    expect(await failure(client.conversations.get("c"))).toMatchObject({
      status: 404,
      code: "not_found",
      message: "The server does not know that conversation or message.",
    });
  });
});

describe("answers that are not the API", () => {
  it("turns a proxy's HTML error page into a clear error, never a crash", async () => {
    const html = "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>";
    const server = await serve(text(502, html, "text/html"));
    const error = await failure(api(server, { retries: 0 }).conversations.list());
    expect(error).toMatchObject({
      status: 502,
      type: "api_error",
      code: "internal",
      message: "The server answered 502 (Bad Gateway) with an HTML page instead of JSON.",
    });
  });

  it("says so when a success answer is HTML (a captive portal, a wrong base URL)", async () => {
    const server = await serve(
      text(200, "<html><body>Sign in to Wi-Fi</body></html>", "text/html"),
    );
    const error = await failure(api(server).messages.get("m"));
    expect(error).toMatchObject({
      status: 200,
      code: "invalid_response",
      message: "The server answered 200 with an HTML page instead of JSON.",
    });
  });

  it("describes plain text and malformed JSON", async () => {
    const server = await serve(
      text(500, "Internal Server Error"),
      text(200, '{"id": "m", ', "application/json"),
    );
    const client = api(server, { retries: 0 });
    expect((await failure(client.messages.get("m"))).message).toBe(
      "The server answered 500 (Internal Server Error) with plain text instead of JSON (“Internal Server Error”).",
    );
    expect((await failure(client.messages.get("m"))).message).toBe(
      "The server answered 200 with malformed JSON.",
    );
  });

  it("names what does not fit the schema", async () => {
    const server = await serve(
      json(200, {
        has_more: false,
        data: [message("m1"), { ...message("m2"), created_at: "soon" }],
      }),
      json(200, { ...conversation("c"), id: undefined }),
      json(200, [1, 2]),
    );
    const client = api(server);
    const list = await failure(client.messages.list());
    expect(list.code).toBe("invalid_response");
    expect(list.status).toBe(200);
    expect(list.message).toMatch(
      /^The server's list of messages does not fit the messaging API: data\[1\]\.created_at: /,
    );
    const one = await failure(client.conversations.get("c"));
    expect(one.message).toMatch(/conversation does not fit the messaging API: id: /);
    const array = await failure(client.conversations.get("c"));
    expect(array.message).toMatch(
      /conversation does not fit the messaging API: the body: expected object/,
    );
  });

  it("does not retry an answer that does not fit (it would not fit again)", async () => {
    const server = await serve(json(200, { nope: true }));
    await failure(api(server).conversations.list());
    expect(server.seen).toHaveLength(1);
  });

  it("stops paging where a cursor repeats, also one the caller started from", async () => {
    // The second page ends on the first page's last id again: has_more forever.
    const server = await serve(
      json(200, { has_more: true, data: [message("m1"), message("m2")] }),
      json(200, { has_more: true, data: [message("m3"), message("m2")] }),
    );
    const error = await failure(
      (async () => {
        for await (const _ of api(server).messages.pages({ limit: 2 }));
      })(),
    );
    expect(error.code).toBe("invalid_response");
    expect(server.seen).toHaveLength(2);
  });

  it("stops a page iterator whose server ignores the cursor instead of looping forever", async () => {
    const server = await serve(json(200, { has_more: true, data: [message("m1"), message("m2")] }));
    const pages: string[][] = [];
    const error = await failure(
      (async () => {
        for await (const page of api(server).messages.pages({ limit: 2 })) {
          pages.push(page.data.map((m) => m.id));
        }
      })(),
    );
    expect(error.code).toBe("invalid_response");
    expect(error.message).toMatch(/ignore starting_after/);
    expect(pages).toEqual([
      ["m1", "m2"],
      ["m1", "m2"],
    ]);
    expect(server.seen.map((r) => r.url)).toEqual([
      "/v1/messages?limit=2",
      "/v1/messages?limit=2&starting_after=m2",
    ]);
  });
});

describe("answers too large", () => {
  /** A body that never ends: 64 KiB chunks for as long as the client reads them. */
  const endless: Handler = (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, " ");
    res.write('{"has_more": false, "data": [');
    const more = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once("drain", more);
    };
    more();
  };

  it("stops reading an endless body at the cap (8 MiB), says so, and does not retry", async () => {
    const server = await serve(endless);
    const error = await failure(api(server).conversations.list());
    expect(error.code).toBe("invalid_response");
    expect(error.message).toBe(
      "The server's answer is larger than 8 MiB; parley stops reading there.",
    );
    expect(server.seen).toHaveLength(1);
  });

  it("refuses a body whose declared length is over the cap without reading it", async () => {
    let sent = 0;
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100000000" });
      const chunk = Buffer.alloc(64 * 1024, " ");
      const more = () => {
        while (!res.destroyed && sent < 100_000_000 && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed && sent < 100_000_000) res.once("drain", more);
      };
      more();
    });
    const error = await failure(api(server, { maxBodyBytes: 1024 * 1024 }).messages.list());
    expect(error.message).toMatch(/larger than 1 MiB/);
    expect(sent).toBeLessThan(100_000_000);
  });

  it("keeps at most 1000 items of a page beyond its limit, and says so once", async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => conversation(`c${i}`));
    const server = await serve(json(200, { has_more: false, data: many }));
    const told: string[] = [];
    const client = api(server, { onLimit: (m) => told.push(m) });
    const page = await client.conversations.list({ limit: 10 });
    expect(page.data).toHaveLength(1010);
    expect(page.data.at(-1)?.id).toBe("c1009");
    // Cut, so the rest is a next page (after the last item kept), not lost silently.
    expect(page.has_more).toBe(true);
    await client.conversations.list({ limit: 10 });
    expect(told).toEqual([
      "The server sent 20000 items in one list of conversations; parley kept the first 1010.",
    ]);
  });
});

describe("no answer", () => {
  it("reports a refused connection as a sentence, status 0", async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const error = await failure(
      createApi({ baseUrl, token: "t", retries: 1, retryDelayMs: 1 }).conversations.list(),
    );
    expect(error).toMatchObject({
      status: 0,
      type: "connection_error",
      code: "network_error",
      message: `Cannot reach ${baseUrl} (connection refused).`,
    });
  });

  it("reports an unknown host", async () => {
    const error = await failure(
      createApi({ baseUrl: "http://parley.invalid", token: "t", retries: 0 }).conversations.list(),
    );
    expect(error.code).toBe("network_error");
    expect(error.message).toMatch(
      /^Cannot reach http:\/\/parley\.invalid \((host not found|host name lookup failed)\)\.$/,
    );
  });

  it("times out a server that never answers, without retrying the wait", async () => {
    const server = await serve(silent);
    const started = Date.now();
    const error = await failure(api(server, { timeoutMs: 300 }).conversations.list());
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({
      status: 0,
      type: "connection_error",
      code: "timeout",
      message: `${server.url} did not answer within 300 ms.`,
    });
    // Not before the time-out; and once only (a retried wait would ask the server again).
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(server.seen).toHaveLength(1);
  });

  it("times out a server that sends the headers and then stalls the body", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"has_more": false, "data": [');
    });
    const error = await failure(api(server, { timeoutMs: 300 }).messages.list());
    expect(error.code).toBe("timeout");
  });

  it("reports a connection the server drops without answering", async () => {
    const server = await serve((_req, res) => {
      res.socket?.destroy();
    });
    const error = await failure(api(server, { retries: 2 }).conversations.list());
    expect(error).toMatchObject({ status: 0, code: "network_error" });
    expect(error.message).toMatch(new RegExp(`^Cannot reach ${server.url} \\(.+\\)\\.$`));
    expect(server.seen).toHaveLength(3);
  });
});

describe("retries", () => {
  it("retries a GET after 503 with backoff, then succeeds", async () => {
    const server = await serve(
      json(503, { type: "api_error", code: "internal", message: "Busy." }),
      text(503, "<html>busy</html>", "text/html"),
      json(200, { has_more: false, data: [conversation("c1")] }),
    );
    const page = await api(server, { retryDelayMs: 100 }).conversations.list();
    expect(page.data.map((c) => c.id)).toEqual(["c1"]);
    expect(server.seen).toHaveLength(3);
    const [first, second, third] = server.seen.map((r) => r.at);
    // Backoff of 100 ms then 200 ms, with jitter between half and all of it.
    expect(second! - first!).toBeGreaterThanOrEqual(45);
    expect(third! - second!).toBeGreaterThanOrEqual(95);
  });

  it("gives up after `retries` retries with the last error", async () => {
    const server = await serve(
      json(500, { type: "api_error", code: "internal", message: "Broken." }),
    );
    const error = await failure(api(server, { retries: 2 }).messages.get("m"));
    expect(error).toMatchObject({ status: 500, code: "internal", message: "Broken." });
    expect(server.seen).toHaveLength(3);
  });

  it("honours Retry-After on 429, then succeeds", async () => {
    const server = await serve(
      json(
        429,
        { type: "invalid_request", code: "rate_limited", message: "Slow down." },
        { "retry-after": "1" },
      ),
      json(200, conversation("c")),
    );
    const started = Date.now();
    await api(server).conversations.get("c");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.seen).toHaveLength(2);
  });

  it("caps a long Retry-After and surfaces it when retries run out", async () => {
    const server = await serve(
      json(429, { code: "rate_limited", message: "Slow down." }, { "retry-after": "3600" }),
    );
    const error = await failure(
      api(server, { retries: 1, maxRetryDelayMs: 50 }).conversations.list(),
    );
    // Waiting out the hour would end the test by its time-out: no bound on time needed here.
    expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfter: 3600 });
    expect(server.seen).toHaveLength(2);
  });

  it("retries a send on 5xx with the same Idempotency-Key", async () => {
    const server = await serve(
      text(502, "<html>bad gateway</html>", "text/html"),
      json(200, message("msg_1")),
    );
    const sent = await api(server).messages.send({ conversation_id: "c", message: "hi" });
    expect(sent.id).toBe("msg_1");
    const keys = server.seen.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(server.seen[0]?.body).toBe(server.seen[1]?.body);
  });

  it("retries a send whose connection dropped, with the same key", async () => {
    const server = await serve((_req, res) => res.socket?.destroy(), json(200, message("msg_1")));
    await api(server).messages.send(
      { conversation_id: "c", message: "hi" },
      { idempotencyKey: "draft-7" },
    );
    expect(server.seen.map((r) => r.headers["idempotency-key"])).toEqual(["draft-7", "draft-7"]);
  });

  it("does not retry a PUT or a DELETE on 5xx, but does on 429", async () => {
    const server = await serve(json(503, { message: "Down." }));
    const client = api(server);
    expect((await failure(client.messages.update("m", { message: "x" }))).status).toBe(503);
    expect((await failure(client.conversations.delete("c"))).status).toBe(503);
    expect(server.seen).toHaveLength(2);

    const limited = await serve(
      json(429, { code: "rate_limited", message: "Slow." }, { "retry-after": "0" }),
      json(200, conversation("c", { is_muted: true })),
    );
    expect((await api(limited).conversations.update("c", { is_muted: true })).is_muted).toBe(true);
    expect(limited.seen).toHaveLength(2);
  });

  it("does not retry a 4xx other than 429", async () => {
    const server = await serve(json(404, { code: "not_found", message: "No such conversation." }));
    await failure(api(server).conversations.get("x"));
    expect(server.seen).toHaveLength(1);
  });
});

// Edges of the attempt that ofetch's timeout and retries are held to (http.ts): every attempt
// has its own timeout, a body that breaks off counts as a lost connection, and exactly the
// statuses of the rule are retried, not the others an HTTP library retries by default.

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
    const error = await failure(api(server, { timeoutMs: 300, retries: 1 }).conversations.list());
    // A retry without a time-out would wait on the silent server until the test's own.
    expect(error.code).toBe("timeout");
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
