// `api.contacts.search`: parley's own `GET /v1/contacts` against the real embedded server, and
// what it makes of servers that do not have it (a foreign server answers 404 or 405: no error,
// `supported: false`) or that answer it loosely.
import { afterEach, describe, expect, it } from "vitest";
import { createApi } from "../../src/api/client.ts";
import { isApiError } from "../../src/api/errors.ts";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { freshDb } from "../server/stores.ts";
import { type ForeignServer, json, startForeignServer, text } from "./foreign-server.ts";

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function demoServer(): Promise<RunningServer> {
  const server = await startServer({
    port: 0,
    db: await freshDb(),
    demo: true,
    demoConversations: false,
    demoReplies: false,
  });
  running.push(server);
  return server;
}

async function foreign(...handlers: Parameters<typeof startForeignServer>): Promise<ForeignServer> {
  const server = await startForeignServer(...handlers);
  running.push(server);
  return server;
}

const apiAt = (url: string, token = "tok_123") =>
  createApi({ baseUrl: url, token, retries: 0, retryDelayMs: 1 });

describe("contacts.search on parley's server", () => {
  it("lists the people whose names hold the text, names that start with it first, not you", async () => {
    const server = await demoServer();
    const alice = apiAt(server.url, server.demoUsers[0]!.token);
    const everyone = await alice.contacts.search("", 20);
    expect(everyone).toEqual({
      supported: true,
      people: ["bob", "carol", "dave", "erin", "frank"].map((username) => ({
        id: `ct_${username}`,
        username,
      })),
      has_more: false,
    });
    const withR = await alice.contacts.search("r", 20);
    expect(withR.people.map((p) => p.username)).toEqual(["carol", "erin", "frank"]);
    const a = await alice.contacts.search("a", 2);
    expect(a.people.map((p) => p.username)).toEqual(["carol", "dave"]);
    expect(a.has_more).toBe(true);
    expect((await alice.contacts.search("zed", 20)).people).toEqual([]);
  });
});

describe("contacts.search on a server without it", () => {
  it.each([
    ["404 with the contract's error body", 404],
    ["405 without a body", 405],
  ])("takes %s as not supported, not as an error", async (_, status) => {
    const server = await foreign(
      status === 404
        ? json(404, { error: { type: "invalid_request", code: "not_found", message: "No route." } })
        : text(405, ""),
    );
    const found = await apiAt(server.url).contacts.search("bo", 10);
    expect(found).toEqual({ supported: false, people: [], has_more: false });
    expect(server.seen.map((r) => r.url)).toEqual(["/v1/contacts?query=bo&limit=10"]);
  });

  it("reports any other failure as the error it is", async () => {
    const server = await foreign(json(401, { error: { message: "Bad token." } }));
    const error = await apiAt(server.url)
      .contacts.search("bo", 10)
      .catch((e: unknown) => e);
    expect(isApiError(error) && error.status).toBe(401);
  });

  it("reads a loose answer: unknown fields ignored, numeric ids, unusable items dropped, at most the limit", async () => {
    const server = await foreign(
      json(200, {
        object: "list",
        data: [
          { id: 7, username: "bob", avatar_url: "https://example.com/b.png" },
          { id: "ct_nameless" },
          "not a person",
          { id: "ct_bobby", username: "bobby", extra: { nested: true } },
          { id: "ct_bobo", username: "bobo" },
        ],
      }),
    );
    const found = await apiAt(server.url).contacts.search("bo", 4);
    expect(found.supported).toBe(true);
    expect(found.people).toEqual([
      { id: "7", username: "bob" },
      { id: "ct_bobby", username: "bobby" },
    ]);
    expect(found.has_more).toBe(true);
  });
});
