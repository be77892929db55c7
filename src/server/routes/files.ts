// /v1/files: uploads (contract.md "Uploads"). POST takes one multipart part named "file",
// read as it arrives and written to the store a chunk at a time: never more than a chunk
// of it in memory, refused with 413 the moment it passes the size limit or its owner's
// quota. GET /v1/files/:id/:name serves it to whoever has the URL (the id is the
// capability), as a download. GET /v1/files tells a client the limits before it sends.
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import { type Context, Hono } from "hono";
import { MAX_FILE_TYPE_LENGTH, MAX_FILENAME_LENGTH, MAX_URL_LENGTH } from "../../api/schema.ts";
import type { AppEnv, Services } from "../env.ts";
import { HttpError, missing } from "../errors.ts";
import { json, methodNotAllowed } from "../respond.ts";
import type { StoredFile } from "../store/store.ts";

export type UploadLimits = {
  /** The largest file taken, in bytes (`--max-upload`). */
  maxBytes: number;
  /** What one person's files may take in all, in bytes (`--upload-quota`). */
  quotaBytes: number;
};

export const DEFAULT_MAX_UPLOAD = 25 * 1024 * 1024;
export const DEFAULT_UPLOAD_QUOTA = 1024 * 1024 * 1024;
/** What one store write holds: a download reads the same pieces back. */
const CHUNK_BYTES = 256 * 1024;
/** The multipart framing around the file: boundaries, part headers. */
const FRAMING_BYTES = 16 * 1024;

/** Types served as they are: none of them runs anything in a browser. Others: octet-stream. */
const INERT_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
  "application/zip",
  "application/gzip",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "video/mp4",
  "video/webm",
  "text/plain",
  "text/csv",
]);

const MIB = 1024 * 1024;
export const megabytes = (bytes: number) =>
  bytes % MIB === 0 ? `${bytes / MIB} MB` : `${(bytes / MIB).toFixed(1)} MB`;

// Answered at once; @hono/node-server then reads and drops the rest for a moment (up to
// 64 MB or 500 ms) so the client can read the answer, and closes the connection after.
const tooLarge = (message: string) => new HttpError(413, "payload_too_large", message);
const overLimit = (limits: UploadLimits) =>
  tooLarge(`The file is larger than this server's limit of ${megabytes(limits.maxBytes)}.`);
const overQuota = (limits: UploadLimits) =>
  tooLarge(
    `Your files would take more than your ${megabytes(limits.quotaBytes)} on this server; ask its operator for room.`,
  );

/** A file name that names nothing else: no folders, no control characters, not too long. */
export function safeFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  // C0, DEL, C1, and the bidirectional controls that make a name read as another.
  const clean = base
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .trim();
  const capped = Array.from(clean).slice(0, MAX_FILENAME_LENGTH).join("");
  return capped === "" || capped === "." || capped === ".." ? "file" : capped;
}

/** The declared type if it is one (kept in the JSON); what is served is servedType's. */
function declaredType(type: string | undefined): string {
  const t = (type ?? "").trim().toLowerCase();
  return /^[a-z0-9][\w.+-]*\/[\w.+-]+$/.test(t) && t.length <= MAX_FILE_TYPE_LENGTH
    ? t
    : "application/octet-stream";
}

export function servedType(type: string): string {
  if (!INERT_TYPES.has(type)) return "application/octet-stream";
  return type.startsWith("text/") ? `${type}; charset=utf-8` : type;
}

/** `attachment` with the name twice: plain ASCII for old readers, RFC 5987 for the rest. */
function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Where the file is fetched: on the host the uploader reached (a proxy's, with its scheme). */
function fileUrl(c: Context<AppEnv>, file: StoredFile): string {
  const url = new URL(c.req.url);
  const proto = c.req.header("x-forwarded-proto");
  if (proto === "https" || proto === "http") url.protocol = `${proto}:`;
  const base = `${url.origin}/v1/files/${file.id}/`;
  const named = base + encodeURIComponent(file.filename);
  return named.length <= MAX_URL_LENGTH ? named : `${base}file`;
}

/** Reads the one part named "file" into the store; the file as stored, or an HttpError. */
function receive(
  c: Context<AppEnv>,
  s: Services,
  limits: UploadLimits,
  ownerId: string,
): Promise<StoredFile> {
  const body = c.req.raw.body;
  if (!body)
    return Promise.reject(missing("file", 'Send the file as a multipart part named "file".'));
  return new Promise<StoredFile>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": c.req.header("content-type") ?? "" },
        // Browsers and undici send a name as raw UTF-8 inside filename="…".
        defParamCharset: "utf8",
        limits: { files: 1, fileSize: limits.maxBytes + 1, fields: 10, fieldSize: 1024, parts: 20 },
      });
    } catch {
      reject(unsupported());
      return;
    }
    const source = Readable.fromWeb(body as NodeWebStream<Uint8Array>);
    let stored: Promise<StoredFile> | undefined;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      // What is left is read and dropped, briefly, by @hono/node-server (see tooLarge).
      source.unpipe(parser);
      source.destroy();
      // Ends the file's stream too, so that a store() still reading it gives up and
      // deletes what it wrote (a connection cut half-way).
      parser.destroy();
      reject(error);
    };
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || stored) {
        stream.resume();
        return;
      }
      stored = store(stream, info).catch((error) => {
        fail(error);
        throw error;
      });
      stored.catch(() => {});
    });
    parser.on("error", () => fail(invalidBody()));
    parser.on("close", () => {
      if (failed) return;
      if (!stored) return fail(missing("file", 'Send the file as a multipart part named "file".'));
      stored.then(resolve, fail);
    });
    source.on("error", () => fail(invalidBody()));
    source.pipe(parser);

    async function store(stream: Readable, info: busboy.FileInfo): Promise<StoredFile> {
      const file: StoredFile = {
        id: `f${randomBytes(24).toString("base64url")}`,
        owner_id: ownerId,
        filename: safeFilename(info.filename),
        file_type: declaredType(info.mimeType),
        size: 0,
        finished: false,
        created_at: s.now(),
      };
      await s.store.files.begin(file);
      try {
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        let seq = 0;
        const flush = async () => {
          const used = await s.store.files.append(
            file.id,
            ownerId,
            seq++,
            Buffer.concat(pending, pendingBytes),
          );
          pending = [];
          pendingBytes = 0;
          if (used > limits.quotaBytes) throw overQuota(limits);
        };
        for await (const data of stream as AsyncIterable<Buffer>) {
          file.size += data.byteLength;
          if (file.size > limits.maxBytes) throw overLimit(limits);
          pending.push(data);
          pendingBytes += data.byteLength;
          if (pendingBytes >= CHUNK_BYTES) await flush();
        }
        if (pendingBytes > 0 || seq === 0) await flush();
        await s.store.files.finish(file.id);
        file.finished = true;
        return file;
      } catch (error) {
        stream.resume();
        await s.store.files.abandon(file.id).catch(() => {});
        throw error;
      }
    }
  });
}

const unsupported = () =>
  new HttpError(
    415,
    "unsupported_media_type",
    'Send the file as multipart/form-data, in one part named "file".',
  );
const invalidBody = () =>
  new HttpError(400, "parameter_invalid", "The multipart body could not be read to its end.", {
    param: "file",
  });

/** POST and GET /v1/files, for signed-in people. */
export function uploadRoutes(s: Services, limits: UploadLimits) {
  const routes = new Hono<AppEnv>();
  routes.get("/", async (c) => {
    const used = await s.store.files.used(c.get("user").id);
    return json(c, { max_upload: limits.maxBytes, quota: limits.quotaBytes, used });
  });
  routes.post("/", async (c) => {
    const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "multipart/form-data") throw unsupported();
    const length = Number(c.req.header("content-length") ?? Number.NaN);
    if (length > limits.maxBytes + FRAMING_BYTES) throw overLimit(limits);
    const user = c.get("user");
    const used = await s.store.files.used(user.id);
    if (used + (Number.isFinite(length) ? length - FRAMING_BYTES : 0) > limits.quotaBytes) {
      throw overQuota(limits);
    }
    const file = await receive(c, s, limits, user.id);
    return c.json(
      {
        file_url: fileUrl(c, file),
        filename: file.filename,
        file_type: file.file_type,
        file_size: file.size,
      },
      201,
    );
  });
  routes.all("/", methodNotAllowed(["GET", "POST"]));
  return routes;
}

/** GET /v1/files/:id/:name: the file, to anyone with its URL (no token asked). */
export function downloadRoutes(s: Services) {
  const routes = new Hono<AppEnv>();
  const serve = async (c: Context<AppEnv>) => {
    const id = c.req.param("id") ?? "";
    const file = /^f[\w-]{32}$/.test(id) ? await s.store.files.get(id) : undefined;
    if (!file?.finished) {
      throw new HttpError(404, "not_found", "There is no such file here, or it was deleted.");
    }
    let seq = 0;
    const bytes = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = await s.store.files.chunk(file.id, seq++);
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    return c.body(bytes, 200, {
      "Content-Type": servedType(file.file_type),
      "Content-Length": String(file.size),
      "Content-Disposition": disposition(file.filename),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, max-age=31536000, immutable",
      "Referrer-Policy": "no-referrer",
    });
  };
  routes.get("/:id", serve);
  routes.get("/:id/:name", serve);
  routes.on("HEAD", ["/:id", "/:id/:name"], serve);
  routes.all("/:id/*", methodNotAllowed(["GET"]));
  return routes;
}
