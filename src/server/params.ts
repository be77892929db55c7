// Reading request parameters: form bodies with bracket notation (qs), JSON bodies and query
// strings, validated with zod. The first failing parameter becomes a 400 that names it.
import type { Context } from "hono";
import qs from "qs";
import { codePoints, groupedDigits } from "../api/message-length.ts";
import {
  MAX_ATTACHMENTS,
  MAX_FILE_TYPE_LENGTH,
  MAX_FILENAME_LENGTH,
  MAX_LIMIT,
  MAX_MESSAGE_LENGTH,
  MAX_REACTION_NAMES,
  MAX_URL_LENGTH,
  NewAttachment,
  REACTION_NAME,
} from "../api/schema.ts";
import { z } from "../zod.ts";
import type { AppEnv, Params } from "./env.ts";
import { HttpError, invalid, missing } from "./errors.ts";

const QS_OPTIONS = {
  depth: 5,
  arrayLimit: 100,
  parameterLimit: 2000,
  allowPrototypes: false,
  throwOnLimitExceeded: true,
};
const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;

/** The body of a POST or PUT, parsed once and kept on the context. */
export async function readBody(c: Context<AppEnv>): Promise<Params> {
  const cached = c.get("body");
  if (cached) return cached;
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "" && type !== FORM && !JSON_TYPE.test(type)) throw unsupported(type);
  const text = await c.req.text();
  let body: Params;
  if (text.trim() === "") body = {};
  else if (type === FORM) body = parseForm(text);
  else if (type === "") throw unsupported(type);
  else body = parseJsonObject(text);
  checkParams(body);
  c.set("body", body);
  return body;
}

/** How deep a body or query may nest; the API's own parameters need 3 levels. */
export const MAX_DEPTH = 32;

/**
 * Refuses, before anything else looks at them, parameters nested deeper than MAX_DEPTH
 * (a 100,000-deep body would overflow the stack of every recursive reader) and text with a
 * NUL character (PostgreSQL cannot store one; nothing in the API needs it).
 */
export function checkParams(params: Params): void {
  // One path, pushed and popped: a copy per value made 12,000 reaction names cost 0.1 s.
  const path: PropertyKey[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string") {
      if (value.includes("\0")) throw nulInside([...path]);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    if (path.length >= MAX_DEPTH) {
      throw invalid(undefined, `The request's parameters nest deeper than ${MAX_DEPTH} levels.`);
    }
    const list = Array.isArray(value);
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      path.push(list ? Number(key) : key);
      if (key.includes("\0")) throw nulInside([...path]);
      walk((value as Record<string, unknown>)[key]);
      path.pop();
    }
  };
  walk(params);
}

const nulInside = (path: readonly PropertyKey[]) => {
  const param = paramName(path);
  return invalid(
    param,
    `The parameter "${param ?? "body"}" must not contain a NUL character (\\u0000, %00).`,
  );
};

/** A path parameter, such as the `:id` of /v1/messages/:id. */
export function pathParam(c: Context, name = "id"): string {
  const value = c.req.param(name) ?? "";
  if (value.includes("\0")) throw nulInside([name]);
  return value;
}

function unsupported(type: string): HttpError {
  return new HttpError(
    415,
    "unsupported_media_type",
    `Send the body as ${FORM} or application/json${type ? `, not ${type}` : " and say so in the Content-Type header"}.`,
  );
}

/** Bracket notation, as in `reactions[heart][]=alice`. */
function parseForm(text: string): Params {
  try {
    return qs.parse(text, QS_OPTIONS);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw invalid(
      undefined,
      `The request has too many parameters: at most ${QS_OPTIONS.parameterLimit}, and ${QS_OPTIONS.arrayLimit} items in a list.`,
    );
  }
}

function parseJsonObject(text: string): Params {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(undefined, `The request body is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(undefined, "The JSON request body must be an object of parameters.");
  }
  return value as Params;
}

/** The query string, bracket notation included; empty values count as absent. */
export function readQuery(c: Context): Params {
  const url = c.req.url;
  const at = url.indexOf("?");
  if (at === -1) return {};
  const query = parseForm(url.slice(at + 1));
  checkParams(query);
  for (const key of Object.keys(query)) if (query[key] === "") delete query[key];
  return query;
}

/**
 * The server's schema of a request whose fields api/schema.ts defines: one validator, with the
 * server's rules and messages, for each of those fields; the compiler refuses a field more or less.
 */
export function requestSchema<
  Shape extends z.core.$ZodShape,
  V extends { [K in keyof Shape]: z.ZodType },
>(
  _fields: z.ZodObject<Shape>,
  validators: V & { [K in Exclude<keyof V, keyof Shape>]: never },
  params?: Parameters<typeof z.object>[1],
): z.ZodObject<V> {
  return z.object(validators, params);
}

export function validate<S extends z.ZodType>(schema: S, params: Params): z.output<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const param = paramName(issue.path);
  if (param === undefined) throw invalid(undefined, issue.message);
  if (issue.code === "invalid_type" && valueAt(params, issue.path) === undefined) {
    throw missing(param);
  }
  throw invalid(param, `The parameter "${param}" ${issue.message}.`);
}

/** `["attachments", 0, "file_url"]` -> `attachments[0][file_url]`, as the client sent it. */
function paramName(path: readonly PropertyKey[]): string | undefined {
  if (path.length === 0) return undefined;
  const [first, ...rest] = path;
  return String(first) + rest.map((part) => `[${String(part)}]`).join("");
}

function valueAt(params: unknown, path: readonly PropertyKey[]): unknown {
  let value = params;
  for (const part of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

// ---- field types: each accepts the form's strings and JSON's native values ----

const error = (text: string) => ({ error: text });

const integerString = (v: unknown) =>
  typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;

const BOOLEANS: Record<string, boolean> = { true: true, false: false, "1": true, "0": false };

export const bool = z.preprocess(
  (v) =>
    typeof v === "string"
      ? (BOOLEANS[v.trim().toLowerCase()] ?? v)
      : v === 1
        ? true
        : v === 0
          ? false
          : v,
  z.boolean(error("must be true or false (or 1 or 0)")),
);

export const limit = z.preprocess(
  integerString,
  z
    .number(error(`must be an integer from 1 to ${MAX_LIMIT}`))
    .int(error(`must be an integer from 1 to ${MAX_LIMIT}`))
    .min(1, error(`must be an integer from 1 to ${MAX_LIMIT}`))
    .max(MAX_LIMIT, error(`must be an integer from 1 to ${MAX_LIMIT}`)),
);

export const id = z
  .string(error("must be an id"))
  .trim()
  .min(1, error("must not be empty"))
  .max(200, error("is too long to be an id"));

/** An id, where an empty value (or JSON null) means "none". */
export const idOrNull = z.preprocess((v) => (v === "" ? null : v), id.nullable());

/** An id that may be sent empty, which counts as not sent. */
export const optionalId = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  id.optional(),
);

/** Unix seconds (milliseconds are accepted and converted); empty or null means "none". */
export const timestampOrNull = z.preprocess(
  (v) => (v === "" ? null : integerString(v)),
  z
    .number(error("must be a Unix time in seconds, or empty for none"))
    .int(error("must be a whole number of seconds"))
    .min(0, error("must not be negative"))
    .transform((v) => (v > 1e11 ? Math.floor(v / 1000) : v))
    .nullable(),
);

export const messageText = z
  .string(error("must be text"))
  .trim()
  .refine((text) => text.length > 0, error("must not be empty or only spaces"))
  .refine(
    (text) => codePoints(text) <= MAX_MESSAGE_LENGTH,
    error(`must be at most ${groupedDigits(MAX_MESSAGE_LENGTH)} characters long`),
  );

const httpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
};

const blankAsAbsent = (v: unknown) => (v === "" || v === null ? undefined : v);

const attachment = requestSchema(
  NewAttachment,
  {
    file_url: z
      .string(error("must be an http or https URL"))
      .trim()
      .max(MAX_URL_LENGTH, error(`must be at most ${MAX_URL_LENGTH} characters long`))
      .refine(httpUrl, error("must be an http or https URL")),
    filename: z.preprocess(
      blankAsAbsent,
      z
        .string(error("must be text"))
        .trim()
        .max(MAX_FILENAME_LENGTH, error(`must be at most ${MAX_FILENAME_LENGTH} characters long`))
        .optional(),
    ),
    file_type: z.preprocess(
      blankAsAbsent,
      z
        .string(error("must be a MIME type such as image/png"))
        .trim()
        .max(MAX_FILE_TYPE_LENGTH, error(`must be at most ${MAX_FILE_TYPE_LENGTH} characters long`))
        .regex(/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, error("must be a MIME type such as image/png"))
        .optional(),
    ),
    file_size: z.preprocess(
      (v) => integerString(blankAsAbsent(v)),
      z
        .number(error("must be a whole number of bytes"))
        .int(error("must be a whole number of bytes"))
        .min(0, error("must not be negative"))
        .optional(),
    ),
  },
  error("must be an attachment: an object with at least a file_url"),
);

export type AttachmentInput = z.output<typeof attachment>;

export const attachments = z
  .array(attachment, error("must be a list of attachments"))
  .max(MAX_ATTACHMENTS, error(`may hold at most ${MAX_ATTACHMENTS} attachments`));

const reactionUsers = z.preprocess(
  (v) => {
    if (v === "" || v === null) return [];
    if (typeof v === "string") return [v];
    return Array.isArray(v) ? v.filter((name) => name !== "") : v;
  },
  z
    .array(
      z
        .string(error("must list user names"))
        .trim()
        .min(1)
        .max(64, error("holds a user name that is too long")),
      error("must be a list of user names"),
    )
    .max(1000, error("lists too many users"))
    .transform((names) => [...new Set(names)]),
);

/** `{name: [users]}`; also accepts the response's shape, a list of one-name objects. */
export const reactions = z.preprocess(
  (v) =>
    Array.isArray(v)
      ? Object.assign({}, ...v.filter((o) => typeof o === "object" && o !== null))
      : v,
  // Counted before anything looks at each name: 12,000 of them took 0.2 s to check.
  z
    .unknown()
    .refine(
      (v) => typeof v !== "object" || v === null || Object.keys(v).length <= MAX_REACTION_NAMES,
      error(`may name at most ${MAX_REACTION_NAMES} reactions`),
    )
    .pipe(
      z.record(
        z.string().regex(REACTION_NAME, error("must be named with 1 to 32 of a-z 0-9 _ + -")),
        reactionUsers,
        error("must map reaction names to lists of user names"),
      ),
    ),
);
