// Run by fetch-classes.test.ts in a process of its own (a fresh module graph, as the client
// has): the embedded server and the API client with parley's Headers, Request and Response
// in place of Node's, through what a client session does over HTTP. Prints what it saw as
// one line of JSON.
import { request } from "node:http";
import { installFetchClasses, LiteHeaders, LiteResponse } from "../../src/api/fetch-classes.ts";

installFetchClasses();
const { startServer } = await import("../../src/server/index.ts");
const { createApi } = await import("../../src/api/client.ts");

const server = await startServer({ port: 0, demo: true, demoReplies: false });
const alice = server.demoUsers.find((user) => user.username === "alice")!;
const api = createApi({ baseUrl: server.url, token: alice.token });

/** A request by hand, for what the API client never sends (a chunked body, a bad path). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: string[] = [],
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const auth = { authorization: `Bearer ${alice.token}` };
const seen: Record<string, unknown> = {};

// Events first, so the message sent below arrives on the stream.
const events: string[] = [];
const states: string[] = [];
// No vitest here (test/wait.ts needs it): each state and event wakes whoever waits on one.
let changed = () => {};
const following = api.events.follow({
  onState: (state) => {
    states.push(state);
    changed();
  },
  onEvent: (event) => {
    events.push(event.type);
    changed();
  },
});
/** Resolves once `done()` holds; the parent test's time-out bounds the wait. */
const until = async (done: () => boolean) => {
  while (!done()) await new Promise<void>((resolve) => (changed = resolve));
};
await until(() => states.includes("live"));

const page = await api.conversations.list({ limit: 5 });
seen.conversations = page.data.length;
const bob = page.data.find((c) => c.contact_id !== null) ?? page.data[0]!;
const sent = await api.messages.send(
  { conversation_id: bob.id, message: "sent with parley's own classes" },
  { idempotencyKey: "lite-1" },
);
const again = await api.messages.send(
  { conversation_id: bob.id, message: "sent with parley's own classes" },
  { idempotencyKey: "lite-1" },
);
seen.replayed = again.id === sent.id;
seen.edited = (await api.messages.update(sent.id, { message: "edited" })).message;
const listed = await api.messages.list({ conversation_id: bob.id, limit: 3 });
seen.newest = listed.data[0]?.message;
// The same GET again: the server answers 304 to the client's If-None-Match. (Of a message:
// retrieving a conversation marks it opened, a change whenever a second has passed.)
const first = await raw("GET", `/v1/messages/${sent.id}`, auth);
const tag = String(first.headers.etag);
const notModified = await raw("GET", `/v1/messages/${sent.id}`, {
  ...auth,
  "if-none-match": tag,
});
seen.conditional = [first.status, tag.startsWith('W/"'), notModified.status, notModified.body];
// A body without Content-Length goes through hono's body limit, which makes a Request.
const chunked = await raw(
  "POST",
  "/v1/messages",
  { ...auth, "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
  [`conversation_id=${bob.id}&`, "message=chunked"],
);
seen.chunked = [chunked.status, (JSON.parse(chunked.body) as { message: string }).message];
const missing = await raw("GET", "/v1/nowhere", auth);
seen.missing = [missing.status, (JSON.parse(missing.body) as { code: string }).code];
seen.serverId = typeof first.headers["parley-server-id"];
await until(() => events.filter((e) => e === "message.created").length >= 2);
seen.events = events.includes("message.created") && events.includes("message.updated");
following.stop();
// What answered all of that: the classes installed, @hono/node-server's own built on them.
seen.classes = [
  globalThis.Headers === (LiteHeaders as unknown),
  globalThis.Response.prototype instanceof LiteResponse ||
    globalThis.Response === (LiteResponse as unknown),
];
await server.close();
process.stdout.write(`${JSON.stringify(seen)}\n`);
process.exit(0);
