// An event's `data:` for one user: the resource exactly as the REST endpoint returns it
// now (a conversation as that user sees it), or the ids of what was deleted. Undefined
// when it is gone meanwhile: a later event says so.
import type { Store, StoredEvent } from "../store/store.ts";

export type Renderer = (event: StoredEvent, userId: string) => Promise<string | undefined>;

/** Members see the same message: one read per event, however many streams it goes to. */
export function createRenderer(store: Store): Renderer {
  let messageOf: { id: number; text: Promise<string | undefined> } | undefined;
  return async (event, userId) => {
    switch (event.type) {
      case "message.created":
      case "message.updated":
        if (messageOf?.id !== event.id) {
          const text = store.messages
            .get(event.resourceId)
            .then((message) => message && JSON.stringify(message));
          messageOf = { id: event.id, text };
        }
        return messageOf.text;
      case "conversation.created":
      case "conversation.updated": {
        const conversation = await store.conversations.visibleTo(event.conversationId, userId);
        return conversation && JSON.stringify(conversation);
      }
      case "message.deleted":
      case "conversation.deleted":
        return JSON.stringify({ id: event.resourceId, conversation_id: event.conversationId });
    }
  };
}
