// The proxy the long-session tests and the bench put in front of the server.
import { connect, createServer } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { pause } from "../wait.ts";
import { createRequestCounter, startProxy, type TcpProxy } from "./proxy.ts";

let server: RunningServer;
let proxy: TcpProxy;
let token: string;

beforeAll(async () => {
  server = await startServer({ demo: true, demoReplies: false });
  token = server.demoUsers[0]!.token;
  proxy = await startProxy({ target: server.url });
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});
afterEach(async () => {
  if (proxy.isCut) await proxy.restore();
  proxy.setDelay(0);
  proxy.resetCounts();
});

const list = (signal?: AbortSignal) =>
  fetch(`${proxy.url}/v1/conversations?limit=3`, {
    headers: { authorization: `Bearer ${token}` },
    ...(signal ? { signal } : {}),
  });

/** The code of the network error a failed fetch carries. */
async function failure(request: Promise<Response>): Promise<string> {
  const error = await request.then(
    () => {
      throw new Error("the request went through");
    },
    (e: Error & { cause?: { code?: string } }) => e,
  );
  return error.cause?.code ?? error.name;
}

describe("proxy", () => {
  it("forwards requests and answers, and counts them", async () => {
    const direct = await (
      await fetch(`${server.url}/v1/conversations?limit=3`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json();
    const response = await list();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(direct);
    const sent = await fetch(`${proxy.url}/v1/conversations`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "contact_id=ct_bob",
    });
    expect(sent.status).toBe(200);
    await sent.text();
    const counts = proxy.counts();
    expect(counts.requests).toBe(2);
    expect(proxy.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/conversations?limit=3",
      "POST /v1/conversations",
    ]);
    expect(counts.bytesUp).toBeGreaterThan(0);
    expect(counts.bytesDown).toBeGreaterThan(JSON.stringify(direct).length);
    const [first, second] = proxy.requests();
    expect(first!.bytesDown).toBeGreaterThan(JSON.stringify(direct).length);
    expect(first!.bytesDown + second!.bytesDown).toBe(counts.bytesDown);
  });

  it("counts every byte each way exactly", async () => {
    const request = `GET /v1/conversations?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`;
    const received = await new Promise<number>((resolve, reject) => {
      const socket = connect(proxy.port, "127.0.0.1", () => socket.write(request));
      let bytes = 0;
      socket.on("data", (chunk) => {
        bytes += chunk.length;
      });
      socket.on("end", () => resolve(bytes));
      socket.on("error", reject);
    });
    expect(received).toBeGreaterThan(100);
    expect(proxy.requests()[0]!.bytesDown).toBe(received);
    expect(proxy.counts()).toEqual({
      connections: 1,
      requests: 1,
      bytesUp: Buffer.byteLength(request),
      bytesDown: received,
    });
  });

  it("refuses connections while cut, keeping its port, and forwards again once restored", async () => {
    expect((await list()).status).toBe(200); // a kept-alive connection to cut
    await proxy.cut();
    expect(proxy.isCut).toBe(true);
    // The kept-alive connection and every new one: reset, as a closed port answers.
    for (let i = 0; i < 3; i++) expect(await failure(list())).toBe("ECONNRESET");
    // Nobody else can take the port in the meantime.
    const other = createServer();
    const taken = await new Promise<string>((resolve) => {
      other.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? ""));
      other.listen(proxy.port, proxy.host, () => resolve("listening"));
    });
    other.close();
    expect(taken).toBe("EADDRINUSE");
    await proxy.restore();
    expect((await list()).status).toBe(200);
  });

  it("resets or hangs instead, if asked", async () => {
    await proxy.cut("reset");
    expect(await failure(list())).toBe("ECONNRESET");
    await proxy.cut("hang");
    expect(await failure(list(AbortSignal.timeout(300)))).toBe("TimeoutError");
    await proxy.restore();
    expect((await list()).status).toBe(200);
  });

  it("cuts a request on its way", async () => {
    proxy.setDelay(200);
    const pending = failure(list());
    await pause(50); // the request on its way, held by the delay
    await proxy.cut();
    expect(["ECONNRESET", "UND_ERR_SOCKET"]).toContain(await pending);
  });

  it("holds each direction for the delay", async () => {
    proxy.setDelay(150);
    const started = performance.now();
    expect((await list()).status).toBe(200);
    // Up and down: at least twice the delay (no upper bound: the machine is shared).
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    proxy.setDelay({ up: 0, down: 100 });
    const again = performance.now();
    expect((await list()).status).toBe(200);
    expect(performance.now() - again).toBeGreaterThanOrEqual(100);
  });
});

describe("request counter", () => {
  it("finds pipelined requests, skipping bodies that look like requests, however split", () => {
    const fake = "GET /not-a-request HTTP/1.1\r\n\r\n";
    const stream = [
      `POST /v1/messages HTTP/1.1\r\nContent-Length: ${fake.length}\r\n\r\n${fake}`,
      `PUT /v1/messages/1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${fake.length.toString(16)}\r\n${fake}\r\n3;x=y\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n`,
      "\r\nGET /v1/conversations HTTP/1.1\r\nHost: x\r\n\r\n",
      "DELETE /v1/messages/2 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ].join("");
    const expected = [
      "POST /v1/messages",
      "PUT /v1/messages/1",
      "GET /v1/conversations",
      "DELETE /v1/messages/2",
    ];
    for (const size of [1, 2, 7, stream.length]) {
      const seen: string[] = [];
      const feed = createRequestCounter((method, path) => seen.push(`${method} ${path}`));
      const bytes = Buffer.from(stream);
      for (let i = 0; i < bytes.length; i += size) feed(bytes.subarray(i, i + size));
      expect(seen, `in pieces of ${size}`).toEqual(expected);
    }
  });
});
