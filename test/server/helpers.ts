// Plain fetch against a real server on a random port; every response body is checked
// against the shared wire schemas.
import qs from "qs";
import { afterAll, beforeAll, expect } from "vitest";
import { Conversation, Deleted, Message, Page } from "../../src/api/schema.ts";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/index.ts";
import type { z } from "../../src/zod.ts";
import { freshDb } from "./stores.ts";

// biome-ignore lint/suspicious/noExplicitAny: bodies are whatever the server sent; the assertions check them
export type Reply = { status: number; headers: Headers; body: any };

export type Body = string | Record<string, unknown>;

export type CallOptions = {
  /** "form" (default) encodes objects with qs bracket notation; strings are sent as they are. */
  as?: "form" | "json";
  headers?: Record<string, string>;
};

export type Client = {
  token: string;
  get(path: string, query?: Record<string, unknown>): Promise<Reply>;
  post(path: string, body?: Body, options?: CallOptions): Promise<Reply>;
  put(path: string, body?: Body, options?: CallOptions): Promise<Reply>;
  del(path: string): Promise<Reply>;
  send(method: string, path: string, init?: RequestInit): Promise<Reply>;
};

export function clientFor(url: string, token: string): Client {
  async function send(method: string, path: string, init: RequestInit = {}): Promise<Reply> {
    const response = await fetch(url + path, {
      ...init,
      method,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, body };
  }
  function withBody(method: string) {
    return (path: string, body: Body = {}, options: CallOptions = {}) => {
      const json = options.as === "json";
      const text =
        typeof body === "string" ? body : json ? JSON.stringify(body) : qs.stringify(body);
      return send(method, path, {
        body: text,
        headers: {
          "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
          ...options.headers,
        },
      });
    };
  }
  return {
    token,
    send,
    get: (path, query) => send("GET", query ? `${path}?${qs.stringify(query)}` : path),
    post: withBody("POST"),
    put: withBody("PUT"),
    del: (path) => send("DELETE", path),
  };
}

export type TestServer = {
  server: RunningServer;
  as(username: string): Client;
};

/**
 * A demo server for the tests of one file (in memory, or a fresh PostgreSQL database in the
 * "postgres" project; demo replies off unless asked).
 */
export function useServer(options: StartOptions = {}): TestServer {
  const context = {} as { server: RunningServer; clients: Map<string, Client> };
  beforeAll(async () => {
    const db = options.db ?? (await freshDb());
    context.server = await startServer({ port: 0, demo: true, demoReplies: false, ...options, db });
    context.clients = new Map(
      context.server.demoUsers.map((u) => [u.username, clientFor(context.server.url, u.token)]),
    );
  });
  afterAll(async () => {
    await context.server?.close();
  });
  return {
    get server() {
      return context.server;
    },
    as(username: string) {
      const client = context.clients.get(username);
      if (!client) throw new Error(`no demo user ${username}`);
      return client;
    },
  };
}

const MESSAGE_KEYS = [
  "attachments",
  "contact",
  "conversation_id",
  "created_at",
  "id",
  "message",
  "reactions",
  "read_at",
  "updated_at",
];
const CONVERSATION_KEYS = [
  "archived_at",
  "contact_id",
  "created_at",
  "group_id",
  "id",
  "is_muted",
  "is_pinned",
  "last_active_at",
  "last_opened_at",
  "pinned_message_id",
];

function conforms<S extends z.ZodType>(schema: S, value: unknown, keys: string[]) {
  expect(Object.keys(value as object).sort()).toEqual(keys);
  return schema.parse(value) as z.output<S>;
}

/** Asserts a 200 with a message that satisfies the shared schema, and returns it. */
export function message(reply: Reply): z.output<typeof Message> {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const parsed = conforms(Message, reply.body, MESSAGE_KEYS);
  expect(Number.isInteger(reply.body.created_at)).toBe(true);
  return parsed;
}

export function conversation(reply: Reply): z.output<typeof Conversation> {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return conforms(Conversation, reply.body, CONVERSATION_KEYS);
}

export function messagePage(reply: Reply) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(Object.keys(reply.body).sort()).toEqual(["data", "has_more"]);
  for (const item of reply.body.data) conforms(Message, item, MESSAGE_KEYS);
  return Page(Message).parse(reply.body);
}

export function conversationPage(reply: Reply) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(Object.keys(reply.body).sort()).toEqual(["data", "has_more"]);
  for (const item of reply.body.data) conforms(Conversation, item, CONVERSATION_KEYS);
  return Page(Conversation).parse(reply.body);
}

export function deleted(reply: Reply, id: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(Deleted.parse(reply.body)).toEqual({ id, deleted: true });
  expect(reply.body).toEqual({ id, deleted: true });
}

/** A 400 parameter_invalid that names `param`: the request's `param` was refused. */
export const invalid = (reply: Reply, param: string) =>
  failure(reply, 400, "parameter_invalid", param);

/** Asserts the contract's flat error body. */
export function failure(
  reply: Reply,
  status: number,
  code: string,
  param?: string,
): { message: string } {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
  const body = reply.body;
  expect(body.type).toBe(status >= 500 ? "api_error" : "invalid_request");
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(body.message).toMatch(/^[A-Z/"].+[.!]$/);
  if (param === undefined) expect(body).not.toHaveProperty("param");
  else expect(body.param).toBe(param);
  const allowed = ["type", "code", "message", "param"];
  expect(Object.keys(body).every((key) => allowed.includes(key))).toBe(true);
  return body;
}

/** The id of the conversation `a` has with contact `b` (created if needed). */
export async function contactConversation(a: Client, contactId: string): Promise<string> {
  return conversation(await a.post("/v1/conversations", { contact_id: contactId })).id;
}

export async function groupConversation(a: Client, groupId: string): Promise<string> {
  return conversation(await a.post("/v1/conversations", { group_id: groupId })).id;
}

/** Sends `text` (with any other fields) as `from`, asserts the 200 and returns the message. */
export async function sendMessage(
  from: Client,
  conversationId: string,
  text: string,
  fields: Record<string, unknown> = {},
) {
  return message(
    await from.post("/v1/messages", { conversation_id: conversationId, message: text, ...fields }),
  );
}

/** Every page of a conversation's messages, newest first, walked with starting_after. */
export async function messagePages(from: Client, conversationId: string, limit = 100) {
  const pages: z.output<typeof Message>[][] = [];
  let after: string | undefined;
  for (;;) {
    const page = messagePage(
      await from.get("/v1/messages", {
        conversation_id: conversationId,
        limit,
        ...(after ? { starting_after: after } : {}),
      }),
    );
    pages.push(page.data);
    if (!page.has_more) return pages;
    after = page.data.at(-1)!.id;
  }
}
