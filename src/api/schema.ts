// The wire format of the messaging API (spec/messaging-api.md + spec/contract.md),
// shared by the client (which parses responses with it) and the embedded server
// (which builds responses that satisfy it).
//
// Parsing is tolerant, as contract.md asks of the client: unknown fields are
// dropped, ids of any shape become strings, millisecond timestamps become seconds,
// attachments without anything to show are ignored.
import { z } from "../zod.ts";

/** Anything above this is taken to be milliseconds, not seconds (year 5138 in seconds). */
const MILLIS_THRESHOLD = 1e11;

export function toUnixSeconds(value: number): number {
  return value > MILLIS_THRESHOLD ? Math.floor(value / 1000) : Math.floor(value);
}

/** An id: opaque, never parsed. Numbers are accepted and turned into strings. */
export const Id = z.union([z.string(), z.number()]).transform((v) => String(v));

/** Unix seconds or null. Accepts milliseconds and numeric strings. */
export const Timestamp = z
  .union([z.number(), z.string().regex(/^\d+(\.\d+)?$/), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? null : toUnixSeconds(Number(v))));

const NullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const Contact = z.object({
  id: Id,
  username: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  phone_number: NullableString,
  avatar_url: NullableString,
  last_active_at: Timestamp,
  created_at: Timestamp,
});
export type Contact = z.output<typeof Contact>;

/**
 * A person the server knows, as `GET /v1/contacts` lists them (parley's extension,
 * docs/api.md): the id `POST /v1/conversations` takes as
 * `contact_id`, and the user name people type. An item that does not fit is null (dropped).
 */
export const Person = z
  .object({ id: Id, username: z.string().min(1) })
  .nullable()
  .catch(null);
export type Person = { id: string; username: string };

/** `{ "<reaction_name>": ["<username>", ...] }`, one name per object. */
export const Reaction = z.record(z.string(), z.array(z.string()));
export type Reaction = z.output<typeof Reaction>;

/**
 * Reactions as the client reads them: `null` is none, an object with several names is split
 * into one object per name (also a bare `{name: [...]}` map instead of an array), user names
 * that are not strings are dropped, and so is every name left without users.
 */
const Reactions = z
  .unknown()
  .optional()
  .transform((value): Reaction[] => {
    const items = Array.isArray(value) ? value : value && typeof value === "object" ? [value] : [];
    return items.flatMap((item) =>
      item && typeof item === "object" && !Array.isArray(item)
        ? Object.entries(item).flatMap(([name, users]) => {
            const names = Array.isArray(users)
              ? users.filter((u): u is string => typeof u === "string")
              : [];
            return names.length > 0 ? [{ [name]: names }] : [];
          })
        : [],
    );
  });

/** A field of an attachment: a value of the wrong type becomes null instead of losing the attachment. */
const LooseString = z.string().nullish().catch(null);

export const Attachment = z.object({
  id: Id.optional().catch(undefined),
  message_id: Id.optional().catch(undefined),
  filename: LooseString,
  file_url: LooseString,
  url: LooseString,
  file_type: LooseString,
  file_size: z
    .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)])
    .nullish()
    .catch(null),
  created_at: Timestamp.catch(null),
});
export type Attachment = z.output<typeof Attachment>;

/** Keeps every attachment with a `file_url`, `url` or `filename`; silently drops the rest. */
const Attachments = z
  .array(z.unknown())
  .nullish()
  .transform((items) =>
    (items ?? []).flatMap((item) => {
      const parsed = Attachment.safeParse(item);
      if (!parsed.success) return [];
      const a = parsed.data;
      return a.file_url || a.url || a.filename ? [a] : [];
    }),
  );

export const Message = z.object({
  id: Id,
  conversation_id: Id,
  contact: Contact,
  message: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  reactions: Reactions,
  attachments: Attachments,
  read_at: Timestamp,
  created_at: Timestamp.transform((v) => v ?? 0),
  updated_at: Timestamp,
});
export type Message = z.output<typeof Message>;

export const Conversation = z.object({
  id: Id,
  contact_id: Id.nullish().transform((v) => v ?? null),
  group_id: Id.nullish().transform((v) => v ?? null),
  pinned_message_id: Id.nullish().transform((v) => v ?? null),
  is_pinned: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  is_muted: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  last_active_at: Timestamp,
  last_opened_at: Timestamp,
  created_at: Timestamp.transform((v) => v ?? 0),
  archived_at: Timestamp,
});
export type Conversation = z.output<typeof Conversation>;

export function Page<T extends z.ZodType>(item: T) {
  return z.object({
    has_more: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
    data: z.array(item),
  });
}
export type Page<T> = { has_more: boolean; data: T[] };

export const Deleted = z.object({ id: Id, deleted: z.boolean() });
export type Deleted = z.output<typeof Deleted>;

export const ERROR_TYPES = ["invalid_request", "api_error"] as const;
export const ERROR_CODES = [
  "parameter_invalid",
  "parameter_missing",
  "unauthenticated",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "idempotency_conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The contract's flat error body. */
export type ErrorBody = {
  type: (typeof ERROR_TYPES)[number];
  code: ErrorCode;
  message: string;
  param?: string;
};

/** A string field of an error body: numbers become strings, anything else (null) is absent. */
const ErrorText = z
  .unknown()
  .transform((v) =>
    typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined,
  )
  .optional();

const ErrorFields = z.object({
  type: ErrorText,
  code: ErrorText,
  message: ErrorText,
  param: ErrorText,
  // RFC 9457 problem details, as some gateways send them.
  detail: ErrorText,
  title: ErrorText,
});

export type ErrorFields = { type?: string; code?: string; message?: string; param?: string };

function errorFields(v: z.output<typeof ErrorFields>, fallbackMessage?: string): ErrorFields {
  const message = v.message ?? v.detail ?? fallbackMessage ?? v.title;
  return {
    ...(v.type !== undefined && { type: v.type }),
    ...(v.code !== undefined && { code: v.code }),
    ...(message !== undefined && { message }),
    ...(v.param !== undefined && { param: v.param }),
  };
}

/**
 * The flat body of contract.md, Stripe's nested `{ error: {...} }`, or the common
 * `{ "error": "<message>" }`. Fields of the wrong type (`"param": null`) are ignored.
 */
export const ErrorResponse = z
  .looseObject({ error: z.unknown().optional() })
  .transform((body): ErrorFields => {
    const nested = body.error;
    if (nested && typeof nested === "object" && !Array.isArray(nested)) {
      return errorFields(ErrorFields.parse(nested));
    }
    return errorFields(
      ErrorFields.parse(body),
      typeof nested === "string" && nested !== "" ? nested : undefined,
    );
  });

// ---- request parameters (what the client sends and the server accepts) ----
//
// The one definition of each request's fields: the client sends these and no others (in this
// order), and the server validates exactly these (server/params.ts, `requestSchema`), with its
// own rules and messages. The types here are what a caller of the client passes.

export const NewAttachment = z.object({
  file_url: z.string(),
  filename: z.string().optional(),
  file_type: z.string().optional(),
  file_size: z.number().optional(),
});
export type NewAttachment = z.input<typeof NewAttachment>;

export const ListMessagesParams = z.object({
  conversation_id: z.string().optional(),
  limit: z.number().optional(),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
});
export type ListMessagesParams = z.input<typeof ListMessagesParams>;

export const SendMessageParams = z.object({
  conversation_id: z.string(),
  message: z.string(),
  attachments: z.array(NewAttachment).optional(),
});
export type SendMessageParams = z.input<typeof SendMessageParams>;

export const UpdateMessageParams = z.object({
  message: z.string().optional(),
  /** For each name sent, its list replaces the existing one; an empty list removes it. */
  reactions: z.record(z.string(), z.array(z.string())).optional(),
  /** Added to the existing attachments. */
  attachments: z.array(NewAttachment).optional(),
});
export type UpdateMessageParams = z.input<typeof UpdateMessageParams>;

export const ListConversationsParams = z.object({
  limit: z.number().optional(),
  muted: z.boolean().optional(),
  archived: z.boolean().optional(),
  pinned: z.boolean().optional(),
  group_id: z.string().optional(),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
});
export type ListConversationsParams = z.input<typeof ListConversationsParams>;

/** Who the conversation is with: one of its fields, a contact or a group. */
export const CreateConversationParams = z.object({
  contact_id: z.string(),
  group_id: z.string(),
});
export type CreateConversationParams = OneOf<z.input<typeof CreateConversationParams>>;

export const UpdateConversationParams = z.object({
  /** null unpins. */
  pinned_message_id: z.string().nullable().optional(),
  is_pinned: z.boolean().optional(),
  is_muted: z.boolean().optional(),
  /** Unix seconds archives; null restores. */
  archived_at: z.number().nullable().optional(),
});
export type UpdateConversationParams = z.input<typeof UpdateConversationParams>;

/** `{a: A, b: B}` -> `{a: A} | {b: B}`. */
type OneOf<T> = { [K in keyof T]: Pick<T, K> }[keyof T];

export const REACTION_NAME = /^[a-z0-9_+-]{1,32}$/;
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 10;
export const MAX_BODY_BYTES = 1024 * 1024;

// What one member may put into a message everyone reads (docs/api.md, "Limits").
/** Distinct reaction names on one message (Discord keeps 20). */
export const MAX_REACTION_NAMES = 20;
export const MAX_ATTACHMENTS = 10;
export const MAX_URL_LENGTH = 2048;
export const MAX_FILENAME_LENGTH = 255;
export const MAX_FILE_TYPE_LENGTH = 127;
/**
 * A message's text and attachments as the API answers them, in UTF-8 bytes of JSON: a page of
 * MAX_LIMIT such messages stays well under what the client reads of one answer (8 MiB).
 */
export const MAX_STORED_MESSAGE_BYTES = 64 * 1024;

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isNone = (value: unknown) => value === null || value === undefined;
const isSeconds = (value: unknown) => isNone(value) || typeof value === "number";
const seconds = (value: unknown) => (isNone(value) ? null : toUnixSeconds(value as number));
const textOr = <T>(value: unknown, none: T) => (isNone(value) ? none : (value as string));
const isText = (value: unknown) => isNone(value) || typeof value === "string";
const isEmpty = (value: unknown) => isNone(value) || (Array.isArray(value) && value.length === 0);

/**
 * A message as `Message` reads it. The shape parley's server sends (string ids, numeric
 * times, no reactions or attachments: every message of a burst) is read without zod, whose
 * generic code a client that has just started runs slowly (the first 1,000 messages of a
 * burst took some 300 ms in zod, the next 1,000 under 20); any other shape goes through
 * zod. test/api/schema.test.ts holds the two to the same answers.
 */
export function parseMessage(json: unknown): Message | undefined {
  const fast = plainMessage(json);
  if (fast) return fast;
  const parsed = Message.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

function plainMessage(m: unknown): Message | undefined {
  if (!isFields(m) || !isFields(m.contact)) return undefined;
  const c = m.contact;
  const plain =
    typeof m.id === "string" &&
    typeof m.conversation_id === "string" &&
    typeof c.id === "string" &&
    isText(c.username) &&
    isText(c.phone_number) &&
    isText(c.avatar_url) &&
    isSeconds(c.last_active_at) &&
    isSeconds(c.created_at) &&
    isText(m.message) &&
    isEmpty(m.reactions) &&
    isEmpty(m.attachments) &&
    isSeconds(m.read_at) &&
    isSeconds(m.created_at) &&
    isSeconds(m.updated_at);
  if (!plain) return undefined;
  return {
    id: m.id as string,
    conversation_id: m.conversation_id as string,
    contact: {
      id: c.id as string,
      username: textOr(c.username, ""),
      phone_number: textOr(c.phone_number, null),
      avatar_url: textOr(c.avatar_url, null),
      last_active_at: seconds(c.last_active_at),
      created_at: seconds(c.created_at),
    },
    message: textOr(m.message, ""),
    reactions: [],
    attachments: [],
    read_at: seconds(m.read_at),
    created_at: seconds(m.created_at) ?? 0,
    updated_at: seconds(m.updated_at),
  };
}
