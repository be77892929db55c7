// The wire format of the messaging API (spec/messaging-api.md + spec/contract.md),
// shared by the client (which parses responses with it) and the embedded server
// (which builds responses that satisfy it).
//
// Parsing is tolerant, as contract.md asks of the client: unknown fields are
// dropped, ids of any shape become strings, millisecond timestamps become seconds,
// attachments without anything to show are ignored.
import { z } from "zod";

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

/** `{ "<reaction_name>": ["<username>", ...] }`, one name per object. */
export const Reaction = z.record(z.string(), z.array(z.string()));
export type Reaction = z.output<typeof Reaction>;

export const Attachment = z.object({
  id: Id.optional(),
  message_id: Id.optional(),
  filename: z.string().nullish(),
  file_url: z.string().nullish(),
  url: z.string().nullish(),
  file_type: z.string().nullish(),
  file_size: z.number().nullish(),
  created_at: Timestamp,
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
  reactions: z
    .array(Reaction)
    .nullish()
    .transform((v) => v ?? []),
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

const ErrorFields = z.object({
  type: z.string().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  param: z.string().optional(),
});

/** The flat body of contract.md, or Stripe's nested `{ error: {...} }`. */
export const ErrorResponse = z
  .union([z.object({ error: ErrorFields }), ErrorFields])
  .transform((v) =>
    "error" in v && typeof v.error === "object" ? v.error : (v as z.output<typeof ErrorFields>),
  );

// ---- request parameters (what the client sends and the server accepts) ----

export type NewAttachment = {
  file_url: string;
  filename?: string;
  file_type?: string;
  file_size?: number;
};

export type ListMessagesParams = {
  conversation_id?: string;
  limit?: number;
  starting_after?: string;
  ending_before?: string;
};

export type SendMessageParams = {
  conversation_id: string;
  message: string;
  attachments?: NewAttachment[];
};

export type UpdateMessageParams = {
  message?: string;
  /** For each name sent, its list replaces the existing one; an empty list removes it. */
  reactions?: Record<string, string[]>;
  /** Added to the existing attachments. */
  attachments?: NewAttachment[];
};

export type ListConversationsParams = {
  limit?: number;
  muted?: boolean;
  archived?: boolean;
  pinned?: boolean;
  group_id?: string;
  starting_after?: string;
  ending_before?: string;
};

export type CreateConversationParams = { contact_id: string } | { group_id: string };

export type UpdateConversationParams = {
  /** null unpins. */
  pinned_message_id?: string | null;
  is_pinned?: boolean;
  is_muted?: boolean;
  /** Unix seconds archives; null restores. */
  archived_at?: number | null;
};

export const REACTION_NAME = /^[a-z0-9_+-]{1,32}$/;
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 10;
export const MAX_BODY_BYTES = 1024 * 1024;
