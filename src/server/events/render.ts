// An event's `data:` for one user: the resource exactly as the REST endpoint returns it
// now (a conversation as that user sees it), the ids of what was deleted, or who read a
// conversation's messages and when. Undefined when it is gone meanwhile: a later event
// says so.
import { decodeReadMark, type Store, type StoredEvent } from "../store/store.ts";

export type Renderer = {
  /**
   * Reads the messages of a batch of events in one query (members see the same message:
   * one read per event, however many streams it goes to). Forgets the batch before.
   */
  prepare(events: readonly StoredEvent[]): Promise<void>;
  render(event: StoredEvent, userId: string): Promise<string | undefined>;
};

const isMessageEvent = (event: StoredEvent) =>
  event.type === "message.created" || event.type === "message.updated";

export function createRenderer(store: Store): Renderer {
  /** Event id -> the message's JSON, for the batch prepared last. */
  let messages = new Map<number, string | undefined>();
  const usernames = new Map<string, string | undefined>();

  async function username(userId: string): Promise<string | undefined> {
    if (!usernames.has(userId)) {
      if (usernames.size > 1000) usernames.clear();
      usernames.set(userId, (await store.users.byId(userId))?.username);
    }
    return usernames.get(userId);
  }

  async function read(events: readonly StoredEvent[]): Promise<void> {
    const wanted = events.filter(isMessageEvent);
    const found = await store.messages.getMany([...new Set(wanted.map((e) => e.resourceId))]);
    for (const event of wanted) {
      const message = found.get(event.resourceId);
      messages.set(event.id, message && JSON.stringify(message));
    }
  }

  return {
    async prepare(events) {
      messages = new Map();
      await read(events);
    },
    async render(event, userId) {
      switch (event.type) {
        case "message.created":
        case "message.updated": {
          if (!messages.has(event.id)) await read([event]);
          return messages.get(event.id);
        }
        case "conversation.created":
        case "conversation.updated": {
          const conversation = await store.conversations.visibleTo(event.conversationId, userId);
          return conversation && JSON.stringify(conversation);
        }
        case "message.deleted":
        case "conversation.deleted":
          return JSON.stringify({ id: event.resourceId, conversation_id: event.conversationId });
        case "messages.read": {
          const mark = decodeReadMark(event.resourceId);
          const reader = mark && (await username(mark.readerId));
          if (!mark || reader === undefined) return undefined;
          return JSON.stringify({
            conversation_id: event.conversationId,
            reader,
            read_at: mark.readAt,
          });
        }
      }
    },
  };
}
