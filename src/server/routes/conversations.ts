// /v1/conversations: spec 4.3.
import { Hono } from "hono";
import {
  CreateConversationParams,
  ListConversationsParams,
  UpdateConversationParams,
} from "../../api/schema.ts";
import type { AppEnv, Services } from "../env.ts";
import { HttpError, invalid, missing, notFound } from "../errors.ts";
import { cursors, pageParams, toPage } from "../pagination.ts";
import {
  bool,
  id,
  idOrNull,
  optionalId,
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

  function visible(conversationId: string, userId: string) {
    const conversation = conversations.visibleTo(conversationId, userId);
    if (!conversation) throw notFound("conversation", conversationId);
    return conversation;
  }

  /** The existing conversation with the contact, or a new one; both members see it. */
  function withContact(userId: string, contactId: string): string {
    if (contactId === userId) {
      throw invalid("contact_id", "You cannot start a conversation with yourself.");
    }
    if (!users.byId(contactId)) {
      throw new HttpError(404, "not_found", `No contact with id "${contactId}" exists.`, {
        param: "contact_id",
      });
    }
    const pairKey = [userId, contactId].sort().join("|");
    return s.store.transaction(() => {
      let conversationId = conversations.idForPair(pairKey);
      if (!conversationId) {
        conversationId = s.newId("conv_");
        conversations.insert(conversationId, { pairKey }, s.now());
      }
      conversations.addMember(conversationId, userId, contactId);
      conversations.addMember(conversationId, contactId, userId);
      return conversationId;
    });
  }

  /** The group's conversation, created on first use; every member of the group sees it. */
  function withGroup(userId: string, groupId: string): string {
    if (!users.isGroupMember(groupId, userId)) {
      throw new HttpError(
        404,
        "not_found",
        `No group with id "${groupId}" exists, or you are not a member of it.`,
        { param: "group_id" },
      );
    }
    return s.store.transaction(() => {
      let conversationId = conversations.idForGroup(groupId);
      if (!conversationId) {
        conversationId = s.newId("conv_");
        conversations.insert(conversationId, { groupId }, s.now());
      }
      for (const memberId of users.groupMembers(groupId)) {
        conversations.addMember(conversationId, memberId, null);
      }
      return conversationId;
    });
  }

  routes.get("/", (c) => {
    const query = validate(ListQuery, readQuery(c));
    const user = c.get("user");
    const page = cursors(query, (cursorId) => conversations.cursor(cursorId, user.id));
    const filter = {
      muted: query.muted,
      archived: query.archived,
      pinned: query.pinned,
      groupId: query.group_id,
    };
    const items = conversations.list(user.id, filter, query.limit + 1, page);
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
    if (params.contact_id !== undefined) conversationId = withContact(user.id, params.contact_id);
    else if (params.group_id !== undefined) conversationId = withGroup(user.id, params.group_id);
    else {
      throw missing(
        "contact_id",
        "Send contact_id (a contact) or group_id (a group) to say who the conversation is with.",
      );
    }
    return json(c, visible(conversationId, user.id));
  });

  routes.get("/:id", (c) => {
    const user = c.get("user");
    const conversation = visible(c.req.param("id"), user.id);
    const now = s.now();
    s.store.transaction(() => {
      conversations.setOpened(conversation.id, user.id, now);
      conversations.markRead(conversation.id, user.id, now);
    });
    return json(c, { ...conversation, last_opened_at: now });
  });

  routes.put("/:id", async (c) => {
    const params = validate(UpdateBody, await readBody(c));
    const user = c.get("user");
    const conversation = visible(c.req.param("id"), user.id);
    const pin = params.pinned_message_id;
    if (pin) {
      const message = messages.head(pin);
      if (message?.conversation_id !== conversation.id) {
        throw invalid(
          "pinned_message_id",
          `The message "${pin}" is not in this conversation; only its own messages can be pinned.`,
        );
      }
    }
    s.store.transaction(() => {
      if (pin !== undefined) conversations.setPinnedMessage(conversation.id, pin);
      if (params.is_pinned !== undefined)
        conversations.setPinned(conversation.id, user.id, params.is_pinned);
      if (params.is_muted !== undefined)
        conversations.setMuted(conversation.id, user.id, params.is_muted);
      if (params.archived_at !== undefined) {
        conversations.setArchived(conversation.id, user.id, params.archived_at);
      }
    });
    return json(c, visible(conversation.id, user.id));
  });

  routes.delete("/:id", (c) => {
    const conversation = visible(c.req.param("id"), c.get("user").id);
    conversations.remove(conversation.id);
    return json(c, { id: conversation.id, deleted: true });
  });

  routes.all("/", methodNotAllowed(["GET", "POST"]));
  routes.all("/:id", methodNotAllowed(["GET", "PUT", "DELETE"]));
  return routes;
}
