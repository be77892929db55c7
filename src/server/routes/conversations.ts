// /v1/conversations: spec 4.3.
import { Hono } from "hono";
import {
  CreateConversationParams,
  ListConversationsParams,
  UpdateConversationParams,
} from "../../api/schema.ts";
import type { AppEnv, Services } from "../env.ts";
import { forbidden, HttpError, invalid, missing, notFound } from "../errors.ts";
import { cursors, pageParams, toPage } from "../pagination.ts";
import {
  bool,
  id,
  idOrNull,
  optionalId,
  pathParam,
  readBody,
  readQuery,
  requestSchema,
  timestampOrNull,
  validate,
} from "../params.ts";
import { json, methodNotAllowed } from "../respond.ts";

const ListQuery = requestSchema(ListConversationsParams, {
  muted: bool.optional(),
  archived: bool.optional(),
  pinned: bool.optional(),
  group_id: id.optional(),
  ...pageParams,
});

const CreateBody = requestSchema(CreateConversationParams, {
  contact_id: optionalId,
  group_id: optionalId,
});

const UpdateBody = requestSchema(UpdateConversationParams, {
  pinned_message_id: idOrNull.optional(),
  is_pinned: bool.optional(),
  is_muted: bool.optional(),
  archived_at: timestampOrNull.optional(),
});

export function conversationRoutes(s: Services) {
  const { conversations, messages, users } = s.store;
  const routes = new Hono<AppEnv>();

  async function visible(conversationId: string, userId: string) {
    const conversation = await conversations.visibleTo(conversationId, userId);
    if (!conversation) throw notFound("conversation", conversationId);
    return conversation;
  }

  /** The existing conversation with the contact, or a new one; both members see it. */
  async function withContact(userId: string, contactId: string): Promise<string> {
    if (contactId === userId) {
      throw invalid("contact_id", "You cannot start a conversation with yourself.");
    }
    if (!(await users.byId(contactId))) {
      throw new HttpError(404, "not_found", `No contact with id "${contactId}" exists.`, {
        param: "contact_id",
      });
    }
    return conversations.openWithContact(userId, contactId, s.newId("conv_"), s.now());
  }

  /** The group's conversation, created on first use; every member of the group sees it. */
  async function withGroup(userId: string, groupId: string): Promise<string> {
    if (!(await users.isGroupMember(groupId, userId))) {
      throw new HttpError(
        404,
        "not_found",
        `No group with id "${groupId}" exists, or you are not a member of it.`,
        { param: "group_id" },
      );
    }
    return conversations.openWithGroup(groupId, s.newId("conv_"), s.now());
  }

  routes.get("/", async (c) => {
    const query = validate(ListQuery, readQuery(c));
    const user = c.get("user");
    const page = await cursors(query, (cursorId) => conversations.cursor(cursorId, user.id));
    const filter = {
      muted: query.muted,
      archived: query.archived,
      pinned: query.pinned,
      groupId: query.group_id,
    };
    const items = await conversations.list(user.id, filter, query.limit + 1, page);
    return json(c, toPage(items, query.limit, page));
  });

  routes.post("/", async (c) => {
    const params = validate(CreateBody, await readBody(c));
    const user = c.get("user");
    if (params.contact_id !== undefined && params.group_id !== undefined) {
      throw invalid(
        undefined,
        "Send contact_id or group_id, not both: a conversation is with one contact or one group.",
      );
    }
    let conversationId: string;
    if (params.contact_id !== undefined) {
      conversationId = await withContact(user.id, params.contact_id);
    } else if (params.group_id !== undefined) {
      conversationId = await withGroup(user.id, params.group_id);
    } else {
      throw missing(
        "contact_id",
        "Send contact_id (a contact) or group_id (a group) to say who the conversation is with.",
      );
    }
    return json(c, await visible(conversationId, user.id));
  });

  routes.get("/:id", async (c) => {
    const user = c.get("user");
    const conversation = await visible(pathParam(c), user.id);
    const now = s.now();
    await conversations.markOpened(conversation.id, user.id, now);
    return json(c, { ...conversation, last_opened_at: now });
  });

  routes.put("/:id", async (c) => {
    const params = validate(UpdateBody, await readBody(c));
    const user = c.get("user");
    const conversation = await visible(pathParam(c), user.id);
    const pin = params.pinned_message_id;
    if (pin) {
      const message = await messages.head(pin);
      if (message?.conversation_id !== conversation.id) {
        throw invalid(
          "pinned_message_id",
          `The message "${pin}" is not in this conversation; only its own messages can be pinned.`,
        );
      }
    }
    await conversations.update(conversation.id, user.id, {
      pinnedMessageId: pin,
      isPinned: params.is_pinned,
      isMuted: params.is_muted,
      archivedAt: params.archived_at,
    });
    return json(c, await visible(conversation.id, user.id));
  });

  routes.delete("/:id", async (c) => {
    const conversation = await visible(pathParam(c), c.get("user").id);
    // Deleting removes it for every member, so a group's conversation is the operator's.
    if (conversation.group_id !== null) {
      throw forbidden(
        "A group's conversation is not a member's to delete: archive it to hide it for you. " +
          "Groups and who is in them are the server operator's (parley groups).",
      );
    }
    await conversations.remove(conversation.id);
    return json(c, { id: conversation.id, deleted: true });
  });

  routes.all("/", methodNotAllowed(["GET", "POST"]));
  routes.all("/:id", methodNotAllowed(["GET", "PUT", "DELETE"]));
  return routes;
}
