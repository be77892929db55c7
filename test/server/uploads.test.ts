// POST /v1/files over HTTP on both stores: the capability URL serves the bytes back as a
// download with safe headers, to anyone holding it; the size limit and the per-person
// quota answer 413 in one line; an upload through one PostgreSQL instance is fetched from
// another. The client's attachment of an uploaded file is in test/api/client.test.ts.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { until } from "../wait.ts";
import {
  clientFor,
  contactConversation,
  failure,
  message,
  type Reply,
  useServer,
} from "./helpers.ts";
import { freshDb, STORE } from "./stores.ts";

const KB = 1024;
const MB = 1024 * 1024;

/** Sends `bytes` as the multipart part "file", as a browser's form or the client would. */
async function upload(
  url: string,
  token: string,
  bytes: Uint8Array,
  filename = "notes.pdf",
  type = "application/pdf",
): Promise<Reply> {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), filename);
  const response = await fetch(`${url}/v1/files`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("uploads", () => {
  const t = useServer({ uploads: { maxBytes: 2 * MB, quotaBytes: 5 * MB } });
  const token = (name: string) => t.as(name).token;

  it("201 with a capability URL that serves the same bytes as a download", async () => {
    const bytes = randomBytes(700 * KB);
    const reply = await upload(t.server.url, token("alice"), bytes);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toEqual({
      file_url: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+\/v1\/files\/f[\w-]{32}\/notes\.pdf$/,
      ),
      filename: "notes.pdf",
      file_type: "application/pdf",
      file_size: 700 * KB,
    });
    // No token: the URL is the capability.
    const fetched = await fetch(reply.body.file_url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-disposition")).toBe(
      `attachment; filename="notes.pdf"; filename*=UTF-8''notes.pdf`,
    );
    expect(fetched.headers.get("x-content-type-options")).toBe("nosniff");
    expect(fetched.headers.get("content-type")).toBe("application/pdf");
    expect(fetched.headers.get("content-length")).toBe(String(700 * KB));
    expect(sha(new Uint8Array(await fetched.arrayBuffer()))).toBe(sha(bytes));
  });

  it("serves an active type as octet-stream, and a hostile name cleaned", async () => {
    const html = new TextEncoder().encode("<script>alert(1)</script>");
    const reply = await upload(t.server.url, token("bob"), html, "../../x\u202e.html", "text/html");
    expect(reply.status).toBe(201);
    expect(reply.body.filename).toBe("x.html");
    expect(reply.body.file_type).toBe("text/html");
    const fetched = await fetch(reply.body.file_url);
    expect(fetched.headers.get("content-type")).toBe("application/octet-stream");
    expect(fetched.headers.get("content-disposition")).toMatch(/^attachment; filename="x\.html"/);
    expect(fetched.headers.get("content-security-policy")).toContain("sandbox");
    await fetched.arrayBuffer();
  });

  it("an unknown or guessed id is a 404, and the URL can be sent as an attachment", async () => {
    const missing = await fetch(`${t.server.url}/v1/files/f${"A".repeat(32)}/notes.pdf`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    const reply = await upload(
      t.server.url,
      token("alice"),
      randomBytes(10 * KB),
      "plan.txt",
      "text/plain",
    );
    const alice = t.as("alice");
    const conversation = await contactConversation(alice, "ct_bob");
    const sent = message(
      await alice.post("/v1/messages", {
        conversation_id: conversation,
        message: "the plan",
        attachments: [reply.body],
      }),
    );
    expect(sent.attachments[0]).toMatchObject(reply.body);
  });

  it("GET /v1/files tells the limits and what the person uses", async () => {
    const carol = t.as("carol");
    const before = await carol.get("/v1/files");
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ max_upload: 2 * MB, quota: 5 * MB, used: 0 });
    await upload(t.server.url, carol.token, randomBytes(100 * KB));
    expect((await carol.get("/v1/files")).body.used).toBe(100 * KB);
  });

  it("413 in one line past the size limit, streamed or not, and nothing is kept", async () => {
    const dave = t.as("dave");
    const reply = await upload(t.server.url, dave.token, randomBytes(2 * MB + 1));
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({
      code: "payload_too_large",
      message: "The file is larger than this server's limit of 2 MB.",
    });
    // Without a Content-Length the server finds out while reading: it answers as soon as
    // the limit is passed, while the rest of the body has not been sent.
    const boundary = "xyz";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`;
    const piece = randomBytes(64 * KB);
    let sent = 0;
    let answered = () => {};
    const held = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
      },
      async pull(controller) {
        if (sent > 2 * MB + 128 * KB) {
          await held;
          return controller.close();
        }
        sent += piece.length;
        controller.enqueue(piece);
      },
    });
    const streamed = fetch(`${t.server.url}/v1/files`, {
      method: "POST",
      body,
      headers: {
        authorization: `Bearer ${dave.token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      duplex: "half",
    } as RequestInit);
    const response = await streamed;
    answered();
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toBe(
      "The file is larger than this server's limit of 2 MB.",
    );
    // Counted in `used` from its first chunk: nothing of it is left.
    expect((await dave.get("/v1/files")).body.used).toBe(0);
  });

  it("an upload cut off half-way leaves nothing behind", async () => {
    const frank = t.as("frank");
    const before = (await frank.get("/v1/files")).body.used;
    const boundary = "cut";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`;
    const abort = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
      },
      async pull(controller) {
        sent += 256 * KB;
        controller.enqueue(randomBytes(256 * KB));
        // Half-way, once some of it is stored: the connection goes.
        if (sent >= MB) {
          await until(
            async () => (await frank.get("/v1/files")).body.used > before,
            "stored pieces",
          );
          abort.abort();
        }
      },
    });
    await fetch(`${t.server.url}/v1/files`, {
      method: "POST",
      body,
      signal: abort.signal,
      headers: {
        authorization: `Bearer ${frank.token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      duplex: "half",
    } as RequestInit).catch(() => {});
    await until(async () => (await frank.get("/v1/files")).body.used === before, "nothing left");
  });

  it("413 past the person's quota; others are not held to it", async () => {
    const erin = t.as("erin");
    for (let i = 0; i < 2; i++) {
      expect((await upload(t.server.url, erin.token, randomBytes(2 * MB))).status).toBe(201);
    }
    const over = await upload(t.server.url, erin.token, randomBytes(1.5 * MB));
    expect(over.status).toBe(413);
    expect(over.body.message).toBe(
      "Your files would take more than your 5 MB on this server; ask its operator for room.",
    );
    expect((await erin.get("/v1/files")).body.used).toBe(4 * MB);
    expect((await upload(t.server.url, token("frank"), randomBytes(1.5 * MB))).status).toBe(201);
  });

  it("refuses what is not one multipart part named file", async () => {
    const alice = t.as("alice");
    failure(await alice.post("/v1/files", { file: "x" }), 415, "unsupported_media_type");
    const form = new FormData();
    form.append("other", new Blob(["x"]), "a.txt");
    const wrong = await alice.send("POST", "/v1/files", { body: form });
    failure(wrong, 400, "parameter_missing", "file");
    failure(await alice.send("DELETE", "/v1/files"), 405, "method_not_allowed");
    const unsigned = await fetch(`${t.server.url}/v1/files`, { method: "POST", body: form });
    expect(unsigned.status).toBe(401);
    await unsigned.arrayBuffer();
  });
});

describe("no uploads", () => {
  const t = useServer({ uploads: false });
  it("POST and GET /v1/files answer 404: a client attaches links only", async () => {
    const alice = t.as("alice");
    failure(await alice.get("/v1/files"), 404, "not_found");
    const form = new FormData();
    form.append("file", new Blob(["x"]), "a.txt");
    failure(await alice.send("POST", "/v1/files", { body: form }), 404, "not_found");
  });
});

describe.skipIf(STORE !== "postgres")("uploads on two PostgreSQL instances", () => {
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    const db = await freshDb();
    const start = () => startServer({ demo: true, demoReplies: false, db });
    [a, b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it("a 10 MB file sent through one is fetched whole from the other", async () => {
    const bytes = randomBytes(10 * MB);
    const alice = a.demoUsers.find((u) => u.username === "alice")!.token;
    const reply = await upload(a.url, alice, bytes, "dump.bin", "application/octet-stream");
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.file_size).toBe(10 * MB);
    const path = new URL(reply.body.file_url).pathname;
    const fetched = await fetch(b.url + path);
    expect(fetched.status).toBe(200);
    expect(sha(new Uint8Array(await fetched.arrayBuffer()))).toBe(sha(bytes));
    const bob = clientFor(b.url, b.demoUsers.find((u) => u.username === "bob")!.token);
    expect((await bob.get("/v1/files")).body.used).toBe(0);
  });
});
