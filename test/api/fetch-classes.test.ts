// The client process's Headers, Request and Response (src/api/fetch-classes.ts): what the
// Fetch standard says of them where parley reads them, checked beside Node's own (undici)
// wherever both should answer alike.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LiteHeaders, LiteRequest, LiteResponse } from "../../src/api/fetch-classes.ts";

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

describe("Headers", () => {
  it("matches names case-insensitively, joins repeated values, and iterates sorted", () => {
    for (const Class of [LiteHeaders, Headers] as const) {
      const headers = new Class({ "X-B": "2", accept: "text/plain" });
      headers.append("x-b", "3");
      headers.append("Set-Cookie", "a=1");
      headers.append("set-cookie", "b=2");
      expect(headers.get("X-b")).toBe("2, 3");
      expect(headers.has("ACCEPT")).toBe(true);
      expect(headers.get("missing")).toBeNull();
      expect([...headers]).toEqual([
        ["accept", "text/plain"],
        ["set-cookie", "a=1"],
        ["set-cookie", "b=2"],
        ["x-b", "2, 3"],
      ]);
      expect(headers.getSetCookie()).toEqual(["a=1", "b=2"]);
      headers.set("X-B", " 4 ");
      headers.delete("accept");
      const seen: string[] = [];
      headers.forEach((value, name) => {
        seen.push(`${name}=${value}`);
      });
      expect(seen).toEqual(["set-cookie=a=1", "set-cookie=b=2", "x-b=4"]);
      expect([...headers.keys()]).toEqual(["set-cookie", "set-cookie", "x-b"]);
      expect([...new Class(headers).values()]).toEqual(["a=1", "b=2", "4"]);
      expect(Object.fromEntries(new Class([["a", "1"]]))).toEqual({ a: "1" });
    }
  });

  it("refuses a name that is not a token and a value that could split a header", () => {
    for (const Class of [LiteHeaders, Headers] as const) {
      expect(() => new Class({ "bad name": "x" })).toThrow(TypeError);
      expect(() => new Class().set("x", "a\r\nInjected: yes")).toThrow(TypeError);
      expect(() => new Class().append("x", "a\0b")).toThrow(TypeError);
      expect(() => new Class().get("bad:name")).toThrow(TypeError);
      expect(() => new Class([["only-a-name"]] as unknown as [string, string][])).toThrow(
        TypeError,
      );
    }
  });

  it("copies Headers-like objects it does not know, through their iterator", () => {
    const foreign = {
      *[Symbol.iterator]() {
        yield ["A", "1"] as const;
      },
    };
    expect(new LiteHeaders(foreign).get("a")).toBe("1");
    expect(new LiteHeaders(new Headers({ b: "2" })).get("b")).toBe("2");
  });
});

describe("Response", () => {
  it("reads a text body once, with the standard's content type", async () => {
    for (const Class of [LiteResponse, Response] as const) {
      const response = new Class("héllo", { status: 201, statusText: "Made" });
      expect(response.status).toBe(201);
      expect(response.ok).toBe(true);
      expect(response.statusText).toBe("Made");
      expect(response.headers.get("content-type")).toBe("text/plain;charset=UTF-8");
      expect(response.bodyUsed).toBe(false);
      expect(await response.text()).toBe("héllo");
      expect(response.bodyUsed).toBe(true);
      await expect(response.text()).rejects.toThrow(TypeError);
    }
  });

  it("reads bytes, JSON, a Blob and a stream", async () => {
    for (const Class of [LiteResponse, Response] as const) {
      const bytes = new Uint8Array([104, 105]);
      const copy = new Class(bytes);
      bytes[0] = 0; // the body was copied as it was made
      expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe("hi");
      expect(await new Class('{"a":[1]}').json()).toEqual({ a: [1] });
      const blob = await new Class("x", { headers: { "content-type": "text/x" } }).blob();
      expect([blob.type, await blob.text()]).toEqual(["text/x", "x"]);
      expect(await new Class(streamOf("a", "b", "c")).text()).toBe("abc");
      expect(await new Class(new URLSearchParams({ q: "a b" })).text()).toBe("q=a+b");
      const reader = new Class("streamed").body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("streamed");
      expect((await reader.read()).done).toBe(true);
      expect(new Class(null).body).toBeNull();
      expect(await new Class().text()).toBe("");
    }
  });

  it("refuses a status out of range and a body on a status that has none", () => {
    for (const Class of [LiteResponse, Response] as const) {
      expect(() => new Class("x", { status: 199 })).toThrow(RangeError);
      expect(() => new Class("x", { status: 600 })).toThrow(RangeError);
      expect(() => new Class("x", { status: 304 })).toThrow(TypeError);
      expect(() => new Class("x", { statusText: "a\nb" })).toThrow(TypeError);
      expect(new Class(null, { status: 204 }).status).toBe(204);
    }
  });

  it("clones, both copies readable, and takes another response as its init", async () => {
    for (const Class of [LiteResponse, Response] as const) {
      const original = new Class(streamOf("one ", "two"), {
        status: 404,
        statusText: "Gone",
        headers: { "x-a": "1" },
      });
      const clone = original.clone();
      expect(await clone.text()).toBe("one two");
      expect(await original.text()).toBe("one two");
      expect([clone.status, clone.statusText, clone.headers.get("x-a")]).toEqual([
        404,
        "Gone",
        "1",
      ]);
      const rewrapped = new Class("new body", original);
      expect([rewrapped.status, rewrapped.headers.get("x-a")]).toEqual([404, "1"]);
      expect(await rewrapped.text()).toBe("new body");
    }
  });

  it("makes JSON and redirect answers", async () => {
    for (const Class of [LiteResponse, Response] as const) {
      const json = Class.json({ ok: true }, { status: 202 });
      expect([json.status, json.headers.get("content-type")]).toEqual([202, "application/json"]);
      expect(await json.json()).toEqual({ ok: true });
      const moved = Class.redirect("http://example.test/a", 307);
      expect([moved.status, moved.headers.get("location")]).toEqual([307, "http://example.test/a"]);
      expect(() => Class.redirect("http://example.test/", 200 as 301)).toThrow(RangeError);
    }
  });
});

describe("Request", () => {
  it("takes an address, a method and a body, as the standard does", async () => {
    for (const Class of [LiteRequest, Request] as const) {
      const request = new Class("http://example.test/a b?x=1", {
        method: "post",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "a=1",
      });
      expect(request.url).toBe("http://example.test/a%20b?x=1");
      expect(request.method).toBe("POST");
      expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
      expect(request.signal).toBeInstanceOf(AbortSignal);
      expect(await request.text()).toBe("a=1");
      expect(new Class("http://example.test/", { method: "PATCH" }).method).toBe("PATCH");
      expect(new Class("http://example.test/").method).toBe("GET");
    }
  });

  it("refuses what the standard refuses", () => {
    for (const Class of [LiteRequest, Request] as const) {
      expect(() => new Class("not an address")).toThrow(TypeError);
      expect(() => new Class("http://example.test/", { method: "CONNECT" })).toThrow(TypeError);
      expect(() => new Class("http://example.test/", { method: "bad method" })).toThrow(TypeError);
      expect(() => new Class("http://example.test/", { method: "GET", body: "x" })).toThrow(
        TypeError,
      );
    }
  });

  it("is made from another request, with a new body (as hono's body limit does)", async () => {
    const original = new LiteRequest("http://example.test/v1/messages", {
      method: "POST",
      headers: { "idempotency-key": "k1" },
      body: streamOf("ignored"),
    });
    const limited = new LiteRequest(original, { body: streamOf("message=", "hi"), duplex: "half" });
    expect([limited.url, limited.method, limited.headers.get("idempotency-key")]).toEqual([
      "http://example.test/v1/messages",
      "POST",
      "k1",
    ]);
    expect(limited.signal).toBe(original.signal);
    const copy = limited.clone();
    expect(await limited.text()).toBe("message=hi");
    expect(await copy.text()).toBe("message=hi");
    expect(() => limited.clone()).toThrow(TypeError);
  });
});

describe("in place of Node's", () => {
  it("carry a whole session between the API client and the embedded server", () => {
    // A process of its own: installed before anything reads Node's, as the client does.
    const script = fileURLToPath(new URL("./lite-classes-session.ts", import.meta.url));
    const out = execFileSync(process.execPath, [script], { encoding: "utf8", timeout: 25_000 });
    expect(JSON.parse(out)).toEqual({
      conversations: 5,
      replayed: true,
      edited: "edited",
      newest: "edited",
      conditional: [200, true, 304, ""],
      chunked: [200, "chunked"],
      missing: [404, "not_found"],
      serverId: "string",
      events: true,
      classes: [true, true],
    });
  });
});
