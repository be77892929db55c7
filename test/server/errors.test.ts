// Every status code of contract.md's error table, and the shape of the error body.
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/api/schema.ts";
import { until } from "../wait.ts";
import {
  clientFor,
  failure,
  groupConversation,
  invalid,
  message,
  type Reply,
  sendMessage,
  useServer,
} from "./helpers.ts";

describe("errors", () => {
  const t = useServer();

  it("401 without an Authorization header, with another scheme, or with an unknown token", async () => {
    const url = t.server.url;
    const none = await fetch(`${url}/v1/messages`);
    const body = await none.json();
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect(body).toMatchObject({ type: "invalid_request", code: "unauthenticated" });
    const basic = await fetch(`${url}/v1/messages`, {
      headers: { authorization: "Basic YWxpY2U6eA==" },
    });
    expect(basic.status).toBe(401);
    failure(await clientFor(url, "prly_nope").get("/v1/conversations"), 401, "unauthenticated");
    failure(await clientFor(url, "").get("/v1/unknown"), 401, "unauthenticated");
  });

  it("404 for an unknown path or id", async () => {
    const alice = t.as("alice");
    failure(await alice.get("/v1/nothing"), 404, "not_found");
    failure(await alice.get("/v2/messages"), 404, "not_found");
    failure(await alice.get("/v1/messages/msg_unknown"), 404, "not_found");
    failure(await alice.get("/v1/conversations/conv_unknown"), 404, "not_found");
    failure(
      await alice.put("/v1/conversations/conv_unknown", { is_muted: true }),
      404,
      "not_found",
    );
    failure(await alice.del("/v1/messages/msg_unknown"), 404, "not_found");
  });

  it("404, not 403, for another user's conversation and its messages", async () => {
    const bob = t.as("bob");
    const alice = t.as("alice");
    const backend = await groupConversation(bob, "grp_backend");
    const sent = await sendMessage(bob, backend, "hi");
    const notFound = failure(await alice.get(`/v1/conversations/${backend}`), 404, "not_found");
    const unknown = failure(await alice.get("/v1/conversations/conv_x"), 404, "not_found");
    // The same answer as for an id that does not exist: nothing is revealed.
    expect(notFound.message.replace(backend, "ID")).toBe(unknown.message.replace("conv_x", "ID"));
    failure(await alice.put(`/v1/conversations/${backend}`, { is_muted: true }), 404, "not_found");
    failure(await alice.del(`/v1/conversations/${backend}`), 404, "not_found");
    failure(await alice.get(`/v1/messages/${sent.id}`), 404, "not_found");
    failure(
      await alice.put(`/v1/messages/${sent.id}`, { reactions: { eyes: ["alice"] } }),
      404,
      "not_found",
    );
    failure(await alice.del(`/v1/messages/${sent.id}`), 404, "not_found");
    failure(
      await alice.get("/v1/messages", { conversation_id: backend }),
      404,
      "not_found",
      "conversation_id",
    );
    failure(
      await alice.post("/v1/messages", { conversation_id: backend, message: "let me in" }),
      404,
      "not_found",
      "conversation_id",
    );
  });

  it("405 with an Allow header for a method the path does not have", async () => {
    const alice = t.as("alice");
    const patch = await alice.send("PATCH", "/v1/messages");
    failure(patch, 405, "method_not_allowed");
    expect(patch.headers.get("allow")).toBe("GET, POST");
    const del = await alice.send("DELETE", "/v1/conversations");
    failure(del, 405, "method_not_allowed");
    const post = await alice.send("POST", "/v1/messages/msg_x");
    failure(post, 405, "method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET, PUT, DELETE");
  });

  it("415 for a body that is neither form nor JSON", async () => {
    const alice = t.as("alice");
    const body = "conversation_id=x&message=hi";
    for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/xml"]) {
      const reply = await alice.send("POST", "/v1/messages", {
        body,
        headers: { "content-type": type },
      });
      failure(reply, 415, "unsupported_media_type");
    }
    const put = await alice.send("PUT", "/v1/conversations/conv_x", {
      body: "is_muted=true",
      headers: { "content-type": "text/csv" },
    });
    failure(put, 415, "unsupported_media_type");
    const untyped = await alice.send("POST", "/v1/messages", { body: new Blob([body]) });
    failure(untyped, 415, "unsupported_media_type");
  });

  it("413 for a body over 1 MiB, with or without Content-Length", async () => {
    const alice = t.as("alice");
    const big = `conversation_id=x&message=${"a".repeat(MAX_BODY_BYTES)}`;
    failure(await alice.post("/v1/messages", big), 413, "payload_too_large");
    const chunks = new ReadableStream({
      start(controller) {
        const piece = new TextEncoder().encode("a".repeat(64 * 1024));
        controller.enqueue(new TextEncoder().encode("message="));
        for (let i = 0; i < 17; i++) controller.enqueue(piece);
        controller.close();
      },
    });
    const streamed = await alice.send("POST", "/v1/messages", {
      body: chunks,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    failure(streamed, 413, "payload_too_large");
  });

  it("400 parameter_missing and parameter_invalid name the parameter", async () => {
    const alice = t.as("alice");
    failure(
      await alice.post("/v1/messages", { message: "hi" }),
      400,
      "parameter_missing",
      "conversation_id",
    );
    invalid(await alice.get("/v1/messages", { limit: 0 }), "limit");
    const bad = invalid(await alice.get("/v1/conversations", { limit: "ten" }), "limit");
    expect(bad.message).toBe('The parameter "limit" must be an integer from 1 to 100.');
    const json = await alice.send("POST", "/v1/messages", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    failure(json, 400, "parameter_invalid");
    const array = await alice.post("/v1/conversations", "[1,2]", { as: "json" });
    failure(array, 400, "parameter_invalid");
    const many = Array.from({ length: 2001 }, (_, i) => `p${i}=1`).join("&");
    failure(await alice.post("/v1/conversations", many), 400, "parameter_invalid");
  });

  it("400, never 500, for a NUL character anywhere, naming the parameter", async () => {
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_design");
    const sent = await sendMessage(alice, id, "x");
    const cases: [Promise<Reply>, string][] = [
      [alice.post("/v1/messages", `conversation_id=${id}&message=a%00b`), "message"],
      [
        alice.post("/v1/messages", { conversation_id: id, message: "a\u0000b" }, { as: "json" }),
        "message",
      ],
      [
        alice.post("/v1/messages", { conversation_id: `${id}\u0000`, message: "hi" }),
        "conversation_id",
      ],
      [
        alice.post(
          "/v1/messages",
          { conversation_id: id, message: "a\u0000b" },
          { as: "json", headers: { "Idempotency-Key": "nul-1" } },
        ),
        "message",
      ],
      [alice.get("/v1/messages?conversation_id=%00"), "conversation_id"],
      [alice.get("/v1/messages?limit=5&starting_after=msg_%00x"), "starting_after"],
      [alice.get("/v1/conversations?group_id=grp%00"), "group_id"],
      [alice.get("/v1/conversations/conv%00x"), "id"],
      [alice.get(`/v1/messages/${sent.id}%00`), "id"],
      [alice.del("/v1/messages/%00"), "id"],
      [alice.put(`/v1/messages/${sent.id}`, "reactions[heart][]=al%00ice"), "reactions[heart][0]"],
      [
        alice.put(`/v1/messages/${sent.id}`, "reactions[he%00art][]=alice"),
        "reactions[he\u0000art]",
      ],
      [
        alice.put(`/v1/messages/${sent.id}`, {
          attachments: [{ file_url: "https://x.example.com/a", filename: "a\u0000.png" }],
        }),
        "attachments[0][filename]",
      ],
      [alice.post("/v1/conversations", "contact_id=ct_bob%00"), "contact_id"],
      [alice.put(`/v1/conversations/${id}`, "pinned_message_id=%00"), "pinned_message_id"],
    ];
    for (const [reply, param] of cases) {
      const body = invalid(await reply, param);
      expect(body.message).toContain("NUL");
    }
    expect(message(await alice.get(`/v1/messages/${sent.id}`)).message).toBe("x");
  });

  it("400, never 500, for a body nested too deeply, with or without an Idempotency-Key", async () => {
    const alice = t.as("alice");
    const id = await groupConversation(alice, "grp_design");
    const deep = (n: number) => `${"[".repeat(n)}1${"]".repeat(n)}`;
    const bodies = [
      `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`,
      `{"conversation_id":"${id}","message":"hi","attachments":${deep(100_000)}}`,
      `{"conversation_id":"${id}","message":"hi","x":${deep(40)}}`,
    ];
    for (const body of bodies) {
      const keyed: Record<string, string>[] = [{}, { "Idempotency-Key": `deep-${body.length}` }];
      for (const headers of keyed) {
        const reply = await alice.post("/v1/messages", body, { as: "json", headers });
        expect(failure(reply, 400, "parameter_invalid").message).toContain("nest");
      }
    }
    // Deep form brackets are cut off by the parser (qs depth), never an error.
    const form = `conversation_id=${id}&message=hi&x${"[a]".repeat(10_000)}=1`;
    message(
      await alice.post("/v1/messages", form, { headers: { "Idempotency-Key": "deep-form" } }),
    );
  });

  it("403 for editing or deleting someone else's message", async () => {
    const design = await groupConversation(t.as("alice"), "grp_design");
    const sent = await sendMessage(t.as("carol"), design, "mine");
    failure(
      await t.as("alice").put(`/v1/messages/${sent.id}`, { message: "yours now" }),
      403,
      "forbidden",
    );
    failure(await t.as("alice").del(`/v1/messages/${sent.id}`), 403, "forbidden");
    expect(message(await t.as("alice").get(`/v1/messages/${sent.id}`)).message).toBe("mine");
  });
});

describe("429", () => {
  const t = useServer({ rateLimit: { perSecond: 1, burst: 3 } });

  it("limits each token, says when to retry, and leaves other tokens alone", async () => {
    const alice = t.as("alice");
    for (let i = 0; i < 3; i++) expect((await alice.get("/v1/conversations")).status).toBe(200);
    const limited = await alice.get("/v1/conversations");
    failure(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await t.as("bob").get("/v1/conversations")).status).toBe(200);
    // The bucket refills (its arithmetic is tested on a clock of its own in units.test.ts):
    // a limited request takes no token, so asking again until it goes through is fair.
    await until(
      async () => (await alice.get("/v1/conversations")).status === 200,
      "alice's token to go through again",
      { intervalMs: 100 },
    );
  });
});

describe("500", () => {
  const logged: string[] = [];
  const t = useServer({
    log: (line) => logged.push(line),
    faults: ({ method, path }) => {
      if (method === "GET" && path === "/v1/conversations") {
        throw new Error("disk on fire at /var/secret/db.sqlite");
      }
      if (path.includes("]0;")) throw new Error(`no such thing: ${path}\nforged line`);
    },
  });

  it("answers internal / api_error with no details, and logs them", async () => {
    const reply = await t.as("alice").get("/v1/conversations");
    const body = failure(reply, 500, "internal");
    expect(JSON.stringify(body)).not.toMatch(/disk|secret|sqlite|Error|at /);
    expect(logged.some((line) => line.includes("disk on fire"))).toBe(true);
    expect((await t.as("alice").get("/v1/messages")).status).toBe(200);
  });

  it("escapes what the request sent in the log: no escape sequence reaches the terminal", async () => {
    const before = logged.length;
    const hostile = "/v1/%1b]0;x%07%1b[2J%1b]52;c;dG91Y2ggL3RtcC94%07%c2%9b31m";
    failure(await t.as("alice").send("POST", hostile), 500, "internal");
    failure(await t.as("alice").get(hostile), 500, "internal");
    const lines = logged.slice(before).join("\n").split("\n");
    expect(lines.filter((line) => line.startsWith("error: "))).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith("forged"))).toEqual([]);
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(lines[0]).toContain("error: POST /v1/\\x1b]0;x\\x07\\x1b[2J");
    expect(lines[0]).toContain("\\x9b31m");
  });
});
