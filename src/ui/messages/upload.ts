// /attach PATH: a file from the person's disk, sent to the server's POST /v1/files and
// added to the draft of the conversation it was asked in, as a link attachment is. The
// limit is known before a byte is sent (GET /v1/files, through the query cache); a large
// file's progress shows in the status bar. A server without uploads, and `parley ssh`
// (where a path names the server's disk), say so in one line and leave links to /attach.
import { useQueryClient } from "@tanstack/react-query";
import type { UploadLimits } from "../../api/client.ts";
import { fileTypeOf } from "../composer/commands.ts";
import type { Drafts } from "../composer/drafts.ts";
import { limitsOptions } from "../queries/uploads.ts";
import type { Session } from "../screen/session.ts";
import { useSession } from "../screen/session-context.tsx";
import { formatBytes } from "../text/format.ts";

const NOT_ATTACHED = "Not attached";
/** Progress is said for files at least this large, every tenth of the way. */
const PROGRESS_FROM_BYTES = 1024 * 1024;
const LINKS_INSTEAD = "attach a link instead (/attach https://…)";
export const OVER_SSH =
  "over parley ssh a path names the server's disk, not yours: attach a link (/attach https://…)";

export function useUpload(drafts: Drafts) {
  const session = useSession();
  const queryClient = useQueryClient();
  const { status } = session;
  const refuse = (reason: string) => status.error(NOT_ATTACHED, new Error(reason));

  /**
   * Uploads the file at `path` for the draft of `conversationId`. `typed`, the command, is
   * taken out of the draft once the file is on its way (still there when it is refused).
   */
  return async (conversationId: string, path: string, typed: string): Promise<void> => {
    const { files } = session;
    if (!files) return refuse(OVER_SSH);
    let file: Awaited<ReturnType<typeof files.open>>;
    let limits: UploadLimits;
    try {
      file = await files.open(path);
      limits = await queryClient.fetchQuery(limitsOptions(session));
    } catch (error) {
      return status.error(NOT_ATTACHED, error);
    }
    const name = file.filename;
    const size = formatBytes(file.size);
    // A server that does not say its limits may still take uploads: its POST will tell.
    if (limits.supported && limits.maxBytes !== undefined && file.size > limits.maxBytes) {
      return refuse(
        `${name} is ${size}; this server takes files up to ${formatBytes(limits.maxBytes)}`,
      );
    }
    // Typing goes on while it uploads; the file joins this conversation's draft.
    if (drafts.get(conversationId).value === typed) drafts.clearText(conversationId);
    status.note(`Uploading ${name} (${size})…`);
    let said = 0;
    const onProgress = (sent: number) => {
      if (file.size < PROGRESS_FROM_BYTES || sent === file.size) return;
      const tenth = Math.floor((sent / file.size) * 10);
      if (tenth <= said) return;
      said = tenth;
      status.note(`Uploading ${name}: ${tenth * 10}% of ${size}…`);
    };
    const type = fileTypeOf(name) ?? "application/octet-stream";
    let uploaded: Awaited<ReturnType<Session["api"]["files"]["upload"]>>;
    try {
      uploaded = await session.api.files.upload(
        { filename: name, type, size: file.size, bytes: file.open() },
        onProgress,
      );
    } catch (error) {
      return status.error(NOT_ATTACHED, error);
    }
    if (!uploaded) return refuse(`this server takes no uploads: ${LINKS_INSTEAD}`);
    const filename = uploaded.filename ?? name;
    const fileType = uploaded.file_type ?? fileTypeOf(filename);
    drafts.setAttachments(conversationId, [
      ...drafts.attachmentsOf(conversationId),
      {
        file_url: uploaded.file_url,
        filename,
        ...(fileType ? { file_type: fileType } : {}),
        file_size: uploaded.file_size ?? file.size,
      },
    ]);
    status.info(
      `Attached ${filename} (${size}): it goes with the next message you send (/detach removes it).`,
    );
  };
}
