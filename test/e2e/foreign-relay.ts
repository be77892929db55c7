// The real server seen through a foreign server's legal choices (contract.md): a relay
// (test/api/foreign-server.ts, a real node:http server) that forwards every request to
// parley's server and reshapes what comes back as another server may:
//   - timestamps in milliseconds ("a value above 10^11 is milliseconds"),
//   - its own opaque ids for messages and conversations (`msg_` + a random hex, never in
//     the server's order: a client that sorted or compared ids would show it),
//   - unknown fields everywhere (`object`, `livemode`, a contact's `color`),
//   - errors in Stripe's nested shape, and HTML pages from its gateway when the server
//     behind it is gone (502) or slow (504).
// The outage is the gateway's: `down` answers 502 with an HTML page. And a gateway can
// lose an answer: `loseNextSendAnswer` forwards the next send and answers 504, so the
// client must retry it under the same Idempotency-Key and the server keep one copy.
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { type ForeignServer, type Seen, startForeignServer } from "../api/foreign-server.ts";

export type ForeignRelay = {
  url: string;
  /** The gateway answers 502 (an HTML page) to everything. */
  down: boolean;
  /** The next POST /v1/messages is carried out, and its answer replaced by a 504 page. */
  loseNextSendAnswer: boolean;
  /** The Idempotency-Keys of the sends whose answers were lost, and of every send after. */
  sends: { key: string; lost: boolean; at: number }[];
  server: ForeignServer;
  close(): Promise<void>;
};

const ID_KEYS = new Set([
  "id",
  "conversation_id",
  "pinned_message_id",
  "starting_after",
  "ending_before",
]);
const MAPPED = /^(msg|conv)_/;

function page(status: number, title: string): string {
  return `<html><head><title>${status} ${title}</title></head><body><center><h1>${status} ${title}</h1></center><hr><center>nginx</center></body></html>`;
}

export async function startForeignRelay(target: string): Promise<ForeignRelay> {
  // The server's id -> ours, and back.
  const out = new Map<string, string>();
  const back = new Map<string, string>();
  const ours = (id: string) => {
    if (!MAPPED.test(id)) return id;
    let mapped = out.get(id);
    if (!mapped) {
      mapped = `${id.startsWith("msg_") ? "msg" : "conv"}_${randomBytes(8).toString("hex")}`;
      out.set(id, mapped);
      back.set(mapped, id);
    }
    return mapped;
  };
  const theirs = (id: string) => back.get(id) ?? id;

  /** The server's answer as the foreign server gives it. */
  const reshape = (value: unknown, key = ""): unknown => {
    if (Array.isArray(value)) return value.map((v) => reshape(v));
    if (value && typeof value === "object") {
      const object: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) object[k] = reshape(v, k);
      if ("data" in object && "has_more" in object) {
        object.object = "list";
        object.url = "/v1/…";
      } else if ("username" in object) object.color = "#c0ffee";
      else if (typeof object.id === "string" && object.id.startsWith("msg")) {
        object.object = "message";
        object.livemode = false;
      } else if (typeof object.id === "string" && object.id.startsWith("conv")) {
        object.object = "conversation";
        object.livemode = false;
      }
      return object;
    }
    if (typeof value === "number" && key.endsWith("_at")) return value * 1000;
    if (typeof value === "string" && ID_KEYS.has(key)) return ours(value);
    return value;
  };

  /** The client's request as the server must see it: our ids back to its own. */
  const translateUrl = (url: string) => {
    const parsed = new URL(url, "http://relay");
    const path = parsed.pathname
      .split("/")
      .map((segment) => encodeURIComponent(theirs(decodeURIComponent(segment))))
      .join("/");
    for (const [k, v] of [...parsed.searchParams]) {
      if (ID_KEYS.has(k)) parsed.searchParams.set(k, theirs(v));
    }
    return `${path}${parsed.search}`;
  };
  const translateBody = (body: string, contentType: string) => {
    if (!body) return body;
    if (contentType.includes("json")) {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      for (const k of Object.keys(parsed)) {
        if (ID_KEYS.has(k) && typeof parsed[k] === "string")
          parsed[k] = theirs(parsed[k] as string);
      }
      return JSON.stringify(parsed);
    }
    const form = new URLSearchParams(body);
    for (const [k, v] of [...form]) if (ID_KEYS.has(k)) form.set(k, theirs(v));
    return form.toString();
  };

  const forward = async (req: Seen, res: ServerResponse, loseAnswer: boolean) => {
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "content-type", "accept", "idempotency-key"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const answer = await fetch(target + translateUrl(req.url), {
      method: req.method,
      headers,
      body:
        req.method === "GET" || req.method === "HEAD"
          ? undefined
          : translateBody(req.body, headers["content-type"] ?? ""),
    });
    const text = await answer.text();
    if (loseAnswer) {
      res.writeHead(504, { "content-type": "text/html" });
      res.end(page(504, "Gateway Time-out"));
      return;
    }
    if (answer.status === 204 || !text) {
      res.writeHead(answer.status);
      res.end();
      return;
    }
    let body: unknown = JSON.parse(text);
    if (answer.status >= 400 && body && typeof body === "object" && "type" in body) {
      const flat = body as { type: string; code?: string; message?: string; param?: string };
      body = {
        error: {
          type: flat.type === "invalid_request" ? "invalid_request_error" : "api_error",
          code: flat.code,
          message: flat.message,
          ...(flat.param ? { param: flat.param } : {}),
        },
      };
    } else body = reshape(body);
    const extra: Record<string, string> = {};
    const retryAfter = answer.headers.get("retry-after");
    if (retryAfter) extra["retry-after"] = retryAfter;
    res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8", ...extra });
    res.end(JSON.stringify(body));
  };

  const relay: ForeignRelay = {
    url: "",
    down: false,
    loseNextSendAnswer: false,
    sends: [],
    server: undefined as unknown as ForeignServer,
    close: () => relay.server.close(),
  };
  relay.server = await startForeignServer((req, res) => {
    if (relay.down) {
      res.writeHead(502, { "content-type": "text/html" });
      res.end(page(502, "Bad Gateway"));
      return;
    }
    const isSend = req.method === "POST" && req.url.split("?")[0] === "/v1/messages";
    const lose = isSend && relay.loseNextSendAnswer;
    if (lose) relay.loseNextSendAnswer = false;
    if (isSend) {
      const key = req.headers["idempotency-key"];
      relay.sends.push({ key: typeof key === "string" ? key : "", lost: lose, at: Date.now() });
    }
    forward(req, res, lose).catch((error: unknown) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end(page(502, `Bad Gateway (${String(error)})`));
    });
  });
  relay.url = relay.server.url;
  return relay;
}
