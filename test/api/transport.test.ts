// parley's fetch over node:http and node:https (`httpFetch` in src/api/http.ts), against
// small real servers on loopback: what ofetch and the event stream read of it, as from
// Node's fetch.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer, globalAgent, Server as TlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { networkError } from "../../src/api/errors.ts";
import { httpFetch } from "../../src/api/http.ts";
import { selfSignedCert } from "../self-signed.ts";
import { closedPort, type ForeignServer, startForeignServer } from "./foreign-server.ts";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const servers: Server[] = [];
const running: ForeignServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

async function serve(handler: Handler, server: Server = createServer()): Promise<string> {
  server.on("request", handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return `${server instanceof TlsServer ? "https" : "http"}://127.0.0.1:${port}`;
}

describe("parley's fetch", () => {
  it("sends the method, headers and body, and answers with a standard Response", async () => {
    const server = await startForeignServer((request, response) => {
      response.writeHead(201, "Made", [
        ["content-type", "application/json"],
        ["x-seen", "one"],
        ["x-seen", "two"],
      ]);
      response.end(
        JSON.stringify({
          method: request.method,
          url: request.url,
          authorization: request.headers.authorization,
          type: request.headers["content-type"],
          length: request.headers["content-length"],
          body: request.body,
        }),
      );
    });
    running.push(server);
    const response = await httpFetch(`${server.url}/v1/messages?limit=2`, {
      method: "post",
      headers: { authorization: "Bearer t", "content-type": "application/x-www-form-urlencoded" },
      body: "text=h%C3%A9",
    });
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.statusText, response.ok]).toEqual([201, "Made", true]);
    expect(response.headers.get("x-seen")).toBe("one, two");
    expect(await response.json()).toEqual({
      method: "POST",
      url: "/v1/messages?limit=2",
      authorization: "Bearer t",
      type: "application/x-www-form-urlencoded",
      length: "12",
      body: "text=h%C3%A9",
    });
  });

  it("keeps the connection for the next request", async () => {
    const sockets = new Set<unknown>();
    const url = await serve((request, response) => {
      sockets.add(request.socket);
      response.end("ok");
    });
    for (let i = 0; i < 5; i++) expect(await (await httpFetch(`${url}/`)).text()).toBe("ok");
    expect(sockets.size).toBe(1);
  });

  it("gives the body as sent before gzip, deflate or br, and asks for them", async () => {
    const text = JSON.stringify({ data: "é".repeat(5000) });
    const codings: Record<string, (input: string) => Buffer> = {
      gzip: gzipSync,
      deflate: deflateSync,
      br: brotliCompressSync,
    };
    const url = await serve((request, response) => {
      const coding = request.url!.slice(1);
      response.setHeader("x-accepted", request.headers["accept-encoding"] ?? "");
      response.setHeader("content-encoding", coding);
      response.end(codings[coding]!(text));
    });
    for (const coding of Object.keys(codings)) {
      const response = await httpFetch(`${url}/${coding}`);
      expect(response.headers.get("x-accepted")).toBe("gzip, deflate, br");
      expect(await response.text()).toBe(text);
    }
  });

  it("has no body for 204 and 304 whatever the headers say", async () => {
    const url = await serve((request, response) => {
      response.writeHead(Number(request.url!.slice(1)), { etag: '"x"' });
      response.end();
    });
    for (const status of [204, 304]) {
      const response = await httpFetch(`${url}/${status}`);
      expect([response.status, response.body]).toEqual([status, null]);
      expect(response.headers.get("etag")).toBe('"x"');
    }
  });

  it("answers a redirect as it is: a token is not sent on to another address", async () => {
    let followed = false;
    const elsewhere = await serve(() => {
      followed = true;
    });
    const url = await serve((_request, response) => {
      response.writeHead(302, { location: `${elsewhere}/v1/conversations` });
      response.end();
    });
    const response = await httpFetch(`${url}/v1/conversations`, {
      headers: { authorization: "Bearer t" },
    });
    expect([response.status, response.headers.get("location"), followed]).toEqual([
      302,
      `${elsewhere}/v1/conversations`,
      false,
    ]);
  });

  it("stops when its signal aborts: before the head, and in the body", async () => {
    const url = await serve((request, response) => {
      if (request.url === "/stream") {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(": hello\n\n");
      }
      // else: no answer at all
    });
    const early = httpFetch(`${url}/silent`, { signal: AbortSignal.timeout(50) });
    await expect(early).rejects.toMatchObject({ name: "TimeoutError" });

    const abort = new AbortController();
    const response = await httpFetch(`${url}/stream`, { signal: abort.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(": hello\n\n");
    abort.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });

    const aborted = new AbortController();
    aborted.abort();
    await expect(httpFetch(`${url}/stream`, { signal: aborted.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("fails as fetch does when nothing answers, with the reason the client shows", async () => {
    const port = await closedPort();
    const failure = await httpFetch(`http://127.0.0.1:${port}/`).catch((error) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(networkError(`http://127.0.0.1:${port}`, failure).message).toBe(
      `Cannot reach http://127.0.0.1:${port} (connection refused).`,
    );
  });

  it("fails as fetch does on an answer fetch cannot hold", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(600);
      response.end("?");
    });
    await expect(httpFetch(`${url}/`)).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
    });
  });

  it("refuses what it does not do with a clear message", async () => {
    await expect(httpFetch("ftp://example.org/")).rejects.toThrow(/cannot ask ftp: addresses/);
    await expect(httpFetch(new Request("http://127.0.0.1/"))).rejects.toThrow(/not a Request/);
  });

  describe("over TLS (a certificate made by openssl for the test)", () => {
    let folder: string | undefined;
    afterEach(() => {
      delete globalAgent.options.ca;
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    function certificate(): { key: Buffer; cert: Buffer } {
      folder = mkdtempSync(join(tmpdir(), "parley-tls-"));
      const made = selfSignedCert(folder, "127.0.0.1");
      return {
        key: readFileSync(made.key),
        cert: readFileSync(made.cert),
      };
    }

    it("speaks https, and says when the certificate is not trusted", async () => {
      const tls = certificate();
      const url = await serve(
        (_request, response) => response.end("over tls"),
        createTlsServer(tls),
      );
      const untrusted = await httpFetch(`${url}/`).catch((error) => error);
      expect(networkError(url, untrusted).message).toBe(
        `Cannot reach ${url} (its TLS certificate is self-signed).`,
      );
      globalAgent.options.ca = tls.cert;
      expect(await (await httpFetch(`${url}/`)).text()).toBe("over tls");
    });
  });
});
