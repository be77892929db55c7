// The endpoint table of the messaging API (spec 4.2, 4.3): for each resource its path, the
// schema of its items, the fields each request sends, and the words an error uses for them.
// Every resource has the same six calls; only the table differs.
import type { z } from "../zod.ts";
import { isApiError } from "./errors.ts";
import type { Form, Http } from "./http.ts";
import { parseAnswer, parseDeleted } from "./http.ts";
import { type Cursors, cutPage, MAX_PAGE_ITEMS, pager } from "./paging.ts";
import {
  Conversation,
  CreateConversationParams,
  type Deleted,
  ListConversationsParams,
  ListMessagesParams,
  Message,
  Page,
  Person,
  SendMessageParams,
  UpdateConversationParams,
  UpdateMessageParams,
} from "./schema.ts";

export type PostOptions = {
  /** Repeating a POST with the same key returns the first result; generated when absent. */
  idempotencyKey?: string;
};

export type MessagesApi = {
  list(params?: ListMessagesParams): Promise<Page<Message>>;
  /** Pages one after the other: older ones with `starting_after`, or newer ones when started with `ending_before`. */
  pages(params?: ListMessagesParams): AsyncGenerator<Page<Message>, void, undefined>;
  send(params: SendMessageParams, options?: PostOptions): Promise<Message>;
  get(id: string): Promise<Message>;
  update(id: string, params: UpdateMessageParams): Promise<Message>;
  delete(id: string): Promise<Deleted>;
};

export type ConversationsApi = {
  list(params?: ListConversationsParams): Promise<Page<Conversation>>;
  pages(params?: ListConversationsParams): AsyncGenerator<Page<Conversation>, void, undefined>;
  /** Returns the existing conversation when there already is one with that contact or group. */
  create(params: CreateConversationParams, options?: PostOptions): Promise<Conversation>;
  /** Also marks the conversation opened and others' messages in it read. */
  get(id: string): Promise<Conversation>;
  update(id: string, params: UpdateConversationParams): Promise<Conversation>;
  delete(id: string): Promise<Deleted>;
};

/** The people a server knows whose user names hold some text: see `ContactsApi.search`. */
export type PeopleFound = {
  /** False when the server has no `/v1/contacts` (a foreign server): then nobody is listed. */
  supported: boolean;
  people: Person[];
  has_more: boolean;
};

export type ContactsApi = {
  /**
   * `GET /v1/contacts`, parley's own extension: the people whose user name holds `query`
   * (names that start with it first), at most `limit`, you left out. A server without it
   * answers 404 or 405, which is no error here: `supported` is false.
   */
  search(query: string, limit: number): Promise<PeopleFound>;
};

/** A fresh key for the `Idempotency-Key` header: one per draft, reused when it is retried. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

type Resource<T> = {
  path: string;
  item: z.ZodType<T>;
  /** The fields each request sends (schema.ts). */
  fields: { list: z.ZodObject; create: z.ZodObject; update: z.ZodObject };
  /** What an `invalid_response` calls the answer: "The server's <word> does not fit...". */
  words: { list: string; create: string; get: string; update: string };
};

const MESSAGES: Resource<Message> = {
  path: "/v1/messages",
  item: Message,
  fields: { list: ListMessagesParams, create: SendMessageParams, update: UpdateMessageParams },
  words: {
    list: "list of messages",
    create: "sent message",
    get: "message",
    update: "updated message",
  },
};

const CONVERSATIONS: Resource<Conversation> = {
  path: "/v1/conversations",
  item: Conversation,
  fields: {
    list: ListConversationsParams,
    create: CreateConversationParams,
    update: UpdateConversationParams,
  },
  words: {
    list: "list of conversations",
    create: "new conversation",
    get: "conversation",
    update: "updated conversation",
  },
};

/** Told when an answer was cut to a limit (a page too long), with a sentence for a person. */
export type OnLimit = (message: string) => void;

/** What a server without an endpoint answers: no such path, or not that method. */
const NOT_SUPPORTED = new Set([404, 405, 501]);

const PeoplePage = Page(Person);

export function contactsApi(http: Http): ContactsApi {
  return {
    async search(query, limit) {
      let answer: Awaited<ReturnType<Http["request"]>>;
      try {
        answer = await http.request({
          method: "GET",
          path: "/v1/contacts",
          query: { query, limit },
        });
      } catch (error) {
        if (isApiError(error) && NOT_SUPPORTED.has(error.status)) {
          return { supported: false, people: [], has_more: false };
        }
        throw error;
      }
      // A completion list: the items asked for, a longer page cut there and not read whole.
      const page = parseAnswer(
        answer,
        PeoplePage,
        "list of people",
        (json) => cutPage(json, limit).json,
      );
      const people = page.data.filter((p): p is Person => p !== null);
      return { supported: true, people, has_more: page.has_more };
    },
  };
}

export function messagesApi(http: Http, onLimit?: OnLimit): MessagesApi {
  const { create, ...calls } = resource(http, MESSAGES, onLimit);
  return { ...calls, send: create };
}

export function conversationsApi(http: Http, onLimit?: OnLimit): ConversationsApi {
  return resource(http, CONVERSATIONS, onLimit);
}

function resource<T extends { id: string }>(
  http: Http,
  { path, item, fields, words }: Resource<T>,
  onLimit: OnLimit = () => {},
) {
  const pageOf = Page(item);
  const one = (id: string) => `${path}/${encodeURIComponent(id)}`;
  const list = async (params: Cursors = {}): Promise<Page<T>> => {
    const asked = (params as { limit?: unknown }).limit;
    const keep = MAX_PAGE_ITEMS + (typeof asked === "number" && asked > 0 ? asked : 0);
    const answer = await http.request({ method: "GET", path, query: pick(params, fields.list) });
    return parseAnswer(answer, pageOf, words.list, (json) => {
      const page = cutPage(json, keep);
      if (page.cut > 0) {
        onLimit(
          `The server sent ${keep + page.cut} items in one ${words.list}; parley kept the first ${keep}.`,
        );
      }
      return page.json;
    });
  };
  const pages = pager(list);
  return {
    list,
    pages: (params: Cursors = {}) => pages(params),
    create: async (params: object, { idempotencyKey }: PostOptions = {}): Promise<T> =>
      parseAnswer(
        await http.request({
          method: "POST",
          path,
          body: pick(params, fields.create),
          idempotencyKey: idempotencyKey ?? newIdempotencyKey(),
        }),
        item,
        words.create,
      ),
    get: async (id: string): Promise<T> =>
      parseAnswer(await http.request({ method: "GET", path: one(id) }), item, words.get),
    update: async (id: string, params: object): Promise<T> =>
      parseAnswer(
        await http.request({ method: "PUT", path: one(id), body: pick(params, fields.update) }),
        item,
        words.update,
      ),
    delete: async (id: string): Promise<Deleted> =>
      parseDeleted(await http.request({ method: "DELETE", path: one(id) }), id),
  };
}

/**
 * Only the parameters an endpoint has, so that nothing else a caller carries is sent. An empty
 * list of attachments adds nothing and is left out rather than sent as `attachments=`.
 */
function pick(params: object, fields: z.ZodObject): Form {
  const source = params as Record<string, Form[string]>;
  const out: Record<string, Form[string]> = {};
  for (const key of Object.keys(fields.shape)) {
    const value = source[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  return out;
}
