// /v1/messages: spec 4.2.
import { Hono } from "hono";
import { ListMessagesParams, SendMessageParams, UpdateMessageParams } from "../../api/schema.ts";
import type { AppEnv, Services } from "../env.ts";
import { forbidden, invalid, notFound } from "../errors.ts";
import { answerFor, claimLost } from "../idempotency.ts";
import { checkStoredMessage } from "../message-limits.ts";
import { cursors, pageJson, pageParams, toPage } from "../pagination.ts";
import {
  type AttachmentInput,
  attachments,
  id,
  messageText,
  pathParam,
  reactions,
  readBody,
  readQuery,
  requestSchema,
  validate,
} from "../params.ts";
import { json, jsonBytes, jsonText, methodNotAllowed } from "../respond.ts";
import { ReactionLimitError } from "../store/reactions.ts";
import type { MessageScope, NewAttachment, NewMessage, User } from "../store/store.ts";
import type { MessageJson } from "../wire.ts";

const ListQuery = requestSchema(ListMessagesParams, {
  conversation_id: id.optional(),
  ...pageParams,
});

const SendBody = requestSchema(SendMessageParams, {
  conversation_id: id,
  message: messageText,
  attachments: attachments.optional(),
});

const UpdateBody = requestSchema(UpdateMessageParams, {
  message: messageText.optional(),
  reactions: reactions.optional(),
  attachments: attachments.optional(),
});

/** A message just stored, as `messages.get` would read it back, without reading it back. */
function newMessageJson(
  message: NewMessage,
  sender: User,
  attachments: readonly NewAttachment[],
): MessageJson {
  return {
    id: message.id,
    conversation_id: message.conversationId,
    contact: {
      id: sender.id,
      username: sender.username,
      phone_number: sender.phone_number,
      avatar_url: sender.avatar_url,
      last_active_at: sender.last_active_at,
      created_at: sender.created_at,
    },
    message: message.body,
    reactions: [],
    attachments: attachments.map((a) => ({
      id: a.id,
      message_id: message.id,
      filename: a.filename,
      file_url: a.file_url,
      file_type: a.file_type,
      file_size: a.file_size,
      created_at: message.createdAt,
    })),
    read_at: null,
    created_at: message.createdAt,
    updated_at: null,
  };
}

/** Without a filename the last segment of the URL's path names the file. */
function filenameOf(a: AttachmentInput): string | null {
  if (a.filename) return a.filename;
  const last = new URL(a.file_url).pathname.split("/").pop();
  if (!last) return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function messageRoutes(s: Services) {
  const { messages, conversations } = s.store;
  const routes = new Hono<AppEnv>();

  const newAttachments = (list: AttachmentInput[] | undefined) =>
    (list ?? []).map((a) => ({
      id: s.newId("att_"),
      filename: filenameOf(a),
      file_url: a.file_url,
      file_type: a.file_type ?? null,
      file_size: a.file_size ?? null,
    }));

  /** The message, if the user is a member of its conversation. */
  async function visibleHead(messageId: string, userId: string) {
    const head = await messages.head(messageId);
    if (!head || !(await conversations.isMember(head.conversation_id, userId))) {
      throw notFound("message", messageId);
    }
    return head;
  }

  routes.get("/", async (c) => {
    const query = validate(ListQuery, readQuery(c));
    const user = c.get("user");
    let scope: MessageScope = { userId: user.id };
    if (query.conversation_id !== undefined) {
      if (!(await conversations.isMember(query.conversation_id, user.id))) {
        throw notFound("conversation", query.conversation_id, "conversation_id");
      }
      scope = { conversationId: query.conversation_id };
    }
    const page = await cursors(query, (cursorId) => messages.cursor(cursorId, scope));
    // Members see the same messages, so a conversation's pages are shared between them.
    const key = [
      "conversationId" in scope ? scope.conversationId : user.id,
      query.limit,
      page.after?.id ?? "",
      page.before?.id ?? "",
    ].join(" ");
    const bytes = await s.pages.get(key, async () =>
      pageJson(
        toPage(await messages.list(scope, query.limit + 1, page), query.limit, page),
        page.before !== undefined,
      ),
    );
    return jsonBytes(c, bytes);
  });

  routes.post("/", async (c) => {
    const params = validate(SendBody, await readBody(c));
    const user = c.get("user");
    if (!(await conversations.isMember(params.conversation_id, user.id))) {
      throw notFound("conversation", params.conversation_id, "conversation_id");
    }
    const sent = {
      id: s.newId("msg_"),
      conversationId: params.conversation_id,
      senderId: user.id,
      body: params.message,
      createdAt: s.now(),
    };
    const files = newAttachments(params.attachments);
    checkStoredMessage(sent.body, [], files);
    const text = JSON.stringify(newMessageJson(sent, user, files));
    // The message and its Idempotency-Key's answer commit together: a retry after a crash
    // finds either both or neither.
    const { answer, stored } = answerFor(c, text);
    if (!(await messages.send(sent, files, answer))) throw claimLost();
    stored();
    s.onMessageSent(sent);
    return jsonText(c, text);
  });

  routes.get("/:id", async (c) => {
    const head = await visibleHead(pathParam(c), c.get("user").id);
    return json(c, await messages.get(head.id));
  });

  routes.put("/:id", async (c) => {
    const params = validate(UpdateBody, await readBody(c));
    const user = c.get("user");
    const head = await visibleHead(pathParam(c), user.id);
    if (params.message !== undefined && head.sender_id !== user.id) {
      throw forbidden("Only the sender of a message can edit its text.");
    }
    if ((params.attachments?.length ?? 0) > 0 && head.sender_id !== user.id) {
      throw forbidden("Only the sender of a message can add attachments to it.");
    }
    // A member reacts only as themselves: of each list, only whether their own name is in
    // it counts; other names neither add nor remove anyone (contract.md, "Reactions").
    const reactionList = Object.entries(params.reactions ?? {}).map(
      ([name, names]) => [name, names.includes(user.username)] as const,
    );
    // Only an edit of the text is an update a reader should see ("edited"); a reaction
    // or an attachment is not (the store sets `updated_at` with the text only). This narrows
    // contract.md ("set by any successful PUT"): with that rule no client could show an
    // honest "edited" marker.
    const files = newAttachments(params.attachments);
    if (params.message !== undefined || files.length > 0) {
      const current = await messages.get(head.id);
      if (current)
        checkStoredMessage(params.message ?? current.message, current.attachments, files);
    }
    try {
      await messages.update(head.id, {
        body: params.message,
        reactions: reactionList,
        reactor: user.username,
        attachments: files,
        at: s.now(),
      });
    } catch (error) {
      if (error instanceof ReactionLimitError) throw invalid("reactions", error.message);
      throw error;
    }
    return json(c, await messages.get(head.id));
  });

  routes.delete("/:id", async (c) => {
    const user = c.get("user");
    const head = await visibleHead(pathParam(c), user.id);
    if (head.sender_id !== user.id) throw forbidden("Only the sender of a message can delete it.");
    await messages.remove(head);
    return json(c, { id: head.id, deleted: true });
  });

  routes.all("/", methodNotAllowed(["GET", "POST"]));
  routes.all("/:id", methodNotAllowed(["GET", "PUT", "DELETE"]));
  return routes;
}
