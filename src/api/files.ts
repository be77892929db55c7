// Uploads (contract.md "Uploads"): POST /v1/files sends a file as one multipart part and
// answers an attachment ready to send. Optional: a server without it answers 404, 405 or
// 501, and the client attaches links only. GET /v1/files, parley's own, says the limits.
import { randomBytes } from "node:crypto";
import { z } from "../zod.ts";
import { isApiError } from "./errors.ts";
import { type Http, parseAnswer } from "./http.ts";

/** What a server without uploads answers. */
const NO_UPLOADS = new Set([404, 405, 501]);

const Limits = z.object({
  max_upload: z.number().int().nonnegative(),
  quota: z.number().int().nonnegative().optional(),
  used: z.number().int().nonnegative().optional(),
});

const Uploaded = z.object({
  file_url: z.string().url().max(2048),
  filename: z.string().max(255).optional(),
  file_type: z.string().max(127).optional(),
  file_size: z.number().int().nonnegative().optional(),
});
export type Uploaded = z.output<typeof Uploaded>;

/** What the server says of uploads: none, or the limits (undefined where it does not say). */
export type UploadLimits =
  | { supported: false }
  | { supported: true; maxBytes?: number; quotaBytes?: number; usedBytes?: number };

/** A file to send: its bytes as they are read, and how many there are. */
export type UploadSource = {
  filename: string;
  type: string;
  size: number;
  bytes: AsyncIterable<Uint8Array>;
};

export type FilesApi = {
  /** GET /v1/files; a server that answers 404/405/501 to it may still take uploads. */
  limits(): Promise<UploadLimits>;
  /** POST /v1/files; `onProgress` hears the bytes of the file sent so far. */
  upload(file: UploadSource, onProgress?: (sent: number) => void): Promise<Uploaded | undefined>;
};

/** Time for an upload: a minute, and a second more per 256 KB (some 2 Mbit/s). */
const uploadTimeoutMs = (size: number) => 60_000 + Math.ceil(size / (256 * 1024)) * 1000;

/** The part's header: the name as UTF-8 inside quotes (as browsers send it), quotes escaped. */
function partHead(boundary: string, file: UploadSource): string {
  const name = file.filename.replace(/[\r\n"]/g, (c) => (c === '"' ? "%22" : " "));
  const type = /^[\w.+-]+\/[\w.+-]+$/.test(file.type) ? file.type : "application/octet-stream";
  return `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;
}

/** The multipart body around the file's bytes, counting them as they go out. */
function multipart(
  file: UploadSource,
  onProgress: (sent: number) => void,
): { boundary: string; length: number; body: ReadableStream<Uint8Array> } {
  const boundary = `parley-${randomBytes(16).toString("hex")}`;
  const head = Buffer.from(partHead(boundary, file));
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const iterator = file.bytes[Symbol.asyncIterator]();
  let sent = 0;
  let phase: "head" | "file" | "done" = "head";
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (phase === "head") {
        phase = "file";
        return controller.enqueue(head);
      }
      if (phase === "done") return controller.close();
      const next = await iterator.next();
      if (next.done) {
        // A file that grew or shrank while read would not match the Content-Length.
        if (sent !== file.size) {
          return controller.error(new Error(`${file.filename} changed while it was sent`));
        }
        phase = "done";
        return controller.enqueue(tail);
      }
      sent += next.value.byteLength;
      if (sent > file.size) {
        return controller.error(new Error(`${file.filename} changed while it was sent`));
      }
      controller.enqueue(next.value);
      onProgress(sent);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return { boundary, length: head.length + file.size + tail.length, body };
}

export function filesApi(http: Http): FilesApi {
  return {
    async limits() {
      try {
        const answer = await http.request({ method: "GET", path: "/v1/files" });
        const limits = parseAnswer(answer, Limits, "upload limits");
        return {
          supported: true,
          maxBytes: limits.max_upload,
          ...(limits.quota !== undefined && { quotaBytes: limits.quota }),
          ...(limits.used !== undefined && { usedBytes: limits.used }),
        };
      } catch (error) {
        if (isApiError(error) && NO_UPLOADS.has(error.status)) return { supported: false };
        throw error;
      }
    },
    async upload(file, onProgress = () => {}) {
      const { boundary, length, body } = multipart(file, onProgress);
      try {
        const answer = await http.request({
          method: "POST",
          path: "/v1/files",
          stream: {
            body,
            contentType: `multipart/form-data; boundary=${boundary}`,
            length,
            timeoutMs: uploadTimeoutMs(file.size),
          },
        });
        return parseAnswer(answer, Uploaded, "uploaded file");
      } catch (error) {
        if (isApiError(error) && NO_UPLOADS.has(error.status)) return undefined;
        throw error;
      }
    },
  };
}
