// The SQLite store: one database file (or memory) in this process, prepared statements
// only. Every method runs synchronously inside; the interface is asynchronous for the
// PostgreSQL store's sake.

import { reactionWrites } from "../reactions.ts";
import { type AccessEnd, encodeAccessEnd, encodeReadMark, type Store } from "../store.ts";
import { createConversationStore } from "./conversations.ts";
import { type OpenOptions, openDatabase, transaction } from "./db.ts";
import { createEventStore } from "./events.ts";
import { createFileStore } from "./files.ts";
import { createIdempotencyStore } from "./idempotency.ts";
import { createMessageStore } from "./messages.ts";
import { MIGRATIONS } from "./migrations.ts";
import { createUserStore } from "./users.ts";

const SEEDED = "demo_seeded";
/** How often another process's commits are looked for. */
const OTHER_WRITERS_EVERY_MS = 250;

export function openSqliteStore(path: string, options?: OpenOptions): Store {
  const db = openDatabase(path, options);
  const users = createUserStore(db);
  const conversations = createConversationStore(db);
  const messages = createMessageStore(db);
  const idempotency = createIdempotencyStore(db);
  const events = createEventStore(db);
  const files = createFileStore(db);
  const getMeta = db.prepare("SELECT value FROM meta WHERE key = ?");
  const setMeta = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
  const changes = db.prepare("SELECT total_changes() AS changes");
  const dataVersion = db.prepare("PRAGMA data_version");
  const ping = db.prepare("SELECT 1");
  // The reader hears of the events a transaction appended once it has committed.
  const tx = <T>(fn: () => T): T => {
    const result = transaction(db, fn);
    events.notify();
    return result;
  };
  // Another process on the same file (`parley ssh` beside `parley serve`, say) appends
  // events this one would not hear of: its commits move data_version, looked at a few
  // times a second, and wake the reader as this process's own appends do.
  let watchOthers: NodeJS.Timeout | undefined;
  const appendedListeners: (() => void)[] = [];
  const othersVersion = () => (dataVersion.get() as { data_version: number }).data_version;
  const watchOtherWriters = () => {
    let seen = othersVersion();
    const timer = setInterval(() => {
      if (!db.isOpen) return;
      const now = othersVersion();
      if (now === seen) return;
      seen = now;
      for (const listener of appendedListeners) listener();
    }, OTHER_WRITERS_EVERY_MS);
    timer.unref();
    return timer;
  };
  /** Inside a transaction: every instance ends the person's streams (hub.ts). */
  const accessEnded = (id: string, end: AccessEnd) =>
    events.append("access.ended", "", encodeAccessEnd(end), [id]);
  const lastSeen = new Map<string, number>();
  const sentListeners: ((event: Parameters<Store["publishSent"]>[0]) => void)[] = [];

  return {
    kind: "sqlite",
    serverId: (getMeta.get("server_id") as { value: string }).value,
    users: {
      byTokenHash: async (hash) => users.byTokenHash(hash),
      byId: async (id) => users.byId(id),
      touch: async (id, now) => users.touch(id, now),
      isGroupMember: async (groupId, userId) => users.isGroupMember(groupId, userId),
      async ensure(list) {
        tx(() => {
          if (users.count() > 0) return;
          for (const { tokenHash, ...user } of list) {
            const token = tokenHash ? { hash: tokenHash, name: "default", expires_at: null } : null;
            users.insert(user, token);
            users.markDemoUser(user.id);
          }
        });
        return users.demoTokens();
      },
    },
    accounts: {
      async add(user, token) {
        return tx(() => {
          if (users.userId(user.username) !== undefined) return false;
          users.insert(user, token);
          return true;
        });
      },
      list: async () => users.accounts(),
      async addToken(username, token, now) {
        return tx(() => {
          const id = users.userId(username);
          if (id === undefined) return "missing";
          if (users.isRemoved(id)) return "removed";
          if (users.addToken(id, token, now)) {
            accessEnded(id, { why: "token replaced", username });
          }
          return "ok";
        });
      },
      async revoke(username, name) {
        return tx(() => {
          const id = users.userId(username);
          if (id === undefined) return undefined;
          const revoked = users.revoke(id, name);
          if (revoked.count > 0 || revoked.demo)
            accessEnded(id, { why: "token revoked", username });
          return revoked.count;
        });
      },
      async tokens(username) {
        const id = users.userId(username);
        return id === undefined ? undefined : users.tokens(id);
      },
      async remove(username, now) {
        return tx(() => {
          const id = users.userId(username);
          if (id === undefined) return false;
          users.remove(id, now);
          accessEnded(id, { why: "removed", username });
          return true;
        });
      },
      async restore(username) {
        return tx(() => {
          const id = users.userId(username);
          if (id === undefined) return "missing";
          if (!users.isRemoved(id)) return "active";
          users.restore(id);
          return "ok";
        });
      },
      search: async (text, limit) => users.search(text, limit),
      async addGroup(id, name, members, now) {
        return tx(() => {
          const ids = members.map(users.userId);
          const unknown = members.filter((_, i) => ids[i] === undefined);
          const removed = members.filter(
            (_, i) => ids[i] !== undefined && users.isRemoved(ids[i]!),
          );
          if (unknown.length === 0 && removed.length === 0) {
            users.insertGroup(id, name, now, ids as string[]);
          }
          return { unknown, removed };
        });
      },
      async removeMembers(id, members) {
        return tx(() => {
          if (!users.groupExists(id)) return undefined;
          return members.filter((member) => {
            const userId = users.userId(member);
            return userId === undefined || !users.leaveGroup(id, userId);
          });
        });
      },
      async tokenUsed(hash, now) {
        users.tokenUsed(hash, now);
      },
      async dropExpired(now) {
        return tx(() => users.dropExpired(now));
      },
      groups: async () => users.groups(),
    },
    conversations: {
      visibleTo: async (id, userId) => conversations.visibleTo(id, userId),
      isMember: async (id, userId) => conversations.isMember(id, userId),
      cursor: async (id, userId) => conversations.cursor(id, userId),
      list: async (userId, filter, limit, page) => conversations.list(userId, filter, limit, page),
      async openWithContact(userId, contactId, newId, now) {
        const pairKey = [userId, contactId].sort().join("|");
        return tx(() => {
          let id = conversations.idForPair(pairKey);
          if (!id) {
            id = newId;
            conversations.insert(id, { pairKey }, now);
          }
          const added = [
            conversations.addMember(id, userId, contactId) && userId,
            conversations.addMember(id, contactId, userId) && contactId,
          ].filter((member) => member !== false);
          events.append("conversation.created", id, id, added);
          return id;
        });
      },
      async openWithGroup(groupId, newId, now) {
        return tx(() => {
          let id = conversations.idForGroup(groupId);
          if (!id) {
            id = newId;
            conversations.insert(id, { groupId }, now);
          }
          const added = users
            .groupMembers(groupId)
            .filter((memberId) => conversations.addMember(id, memberId, null));
          events.append("conversation.created", id, id, added);
          return id;
        });
      },
      async markOpened(id, userId, now) {
        tx(() => {
          conversations.setOpened(id, userId, now);
          const { changes } = conversations.markRead(id, userId, now);
          events.append("conversation.updated", id, id, [userId]);
          if (Number(changes) > 0) {
            const mark = encodeReadMark({ readerId: userId, readAt: now });
            events.append("messages.read", id, mark, "members");
          }
        });
      },
      async update(id, userId, changes) {
        tx(() => {
          if (changes.pinnedMessageId !== undefined) {
            conversations.setPinnedMessage(id, changes.pinnedMessageId);
          }
          if (changes.isPinned !== undefined) conversations.setPinned(id, userId, changes.isPinned);
          if (changes.isMuted !== undefined) conversations.setMuted(id, userId, changes.isMuted);
          if (changes.archivedAt !== undefined) {
            conversations.setArchived(id, userId, changes.archivedAt);
          }
          // The pinned message is everyone's; the rest is the user's own.
          const shared = changes.pinnedMessageId !== undefined;
          events.append("conversation.updated", id, id, shared ? "members" : [userId]);
        });
      },
      async remove(id) {
        tx(() => {
          events.append("conversation.deleted", id, id, "members");
          conversations.remove(id);
        });
      },
      members: async (id) => conversations.members(id),
    },
    messages: {
      get: async (id) => messages.get(id),
      getMany: async (ids) => messages.getMany(ids),
      head: async (id) => messages.head(id),
      cursor: async (id, scope) => messages.cursor(id, scope),
      list: async (scope, limit, page) => messages.list(scope, limit, page),
      async send(message, attachments, answer) {
        return tx(() => {
          if (answer && !idempotency.complete(answer)) return false;
          messages.insert(message);
          messages.addAttachments(message.id, attachments, message.createdAt);
          conversations.setActivity(message.conversationId, message.createdAt);
          events.append("message.created", message.conversationId, message.id, "members");
          return true;
        });
      },
      async update(id, changes) {
        tx(() => {
          if (changes.body !== undefined) {
            messages.setBody(id, changes.body);
            messages.setUpdated(id, changes.at);
          }
          if (changes.reactions.length > 0) {
            const current = messages.reactionsOf(id);
            messages.writeReactions(
              id,
              reactionWrites(current, changes.reactions, changes.reactor),
            );
          }
          messages.addAttachments(id, changes.attachments, changes.at);
          const head = messages.head(id);
          if (head) events.append("message.updated", head.conversation_id, id, "members");
        });
      },
      async addReaction(id, name, username) {
        tx(() => {
          const writes = reactionWrites(messages.reactionsOf(id), [[name, true]], username);
          if (writes.set.length === 0) return;
          messages.writeReactions(id, writes);
          const head = messages.head(id);
          if (head) events.append("message.updated", head.conversation_id, id, "members");
        });
      },
      async remove(head) {
        tx(() => {
          messages.remove(head.id);
          conversations.unpinMessage(head.id);
          conversations.recomputeActivity(head.conversation_id);
          events.append("message.deleted", head.conversation_id, head.id, "members");
          // Its activity moved back, and it may have been the pinned message.
          events.append(
            "conversation.updated",
            head.conversation_id,
            head.conversation_id,
            "members",
          );
        });
      },
    },
    idempotency: {
      claim: async (userId, key, fingerprint, now) =>
        idempotency.claim(userId, key, fingerprint, now),
      async complete(answer) {
        idempotency.complete(answer);
      },
      release: async (userId, key) => idempotency.release(userId, key),
    },
    events: {
      after: async (afterId, limit, userId) => events.after(afterId, limit, userId),
      bounds: async () => events.bounds(),
      prune: async (keptSeconds, keptCount) => events.prune(keptSeconds, keptCount),
      tokenOwners: async (tokens) => events.tokenOwners(tokens),
      onAppended(listener) {
        events.onAppended(listener);
        appendedListeners.push(listener);
        if (path !== ":memory:") watchOthers ??= watchOtherWriters();
      },
    },
    files: {
      begin: async (file) => files.begin(file),
      append: async (id, ownerId, seq, bytes) => files.append(id, ownerId, seq, bytes),
      finish: async (id) => files.finish(id),
      abandon: async (id) => files.abandon(id),
      used: async (ownerId) => files.used(ownerId),
      get: async (id) => files.get(id),
      chunk: async (id, seq) => files.chunk(id, seq),
      dropUnfinished: async (before) => files.dropUnfinished(before),
    },
    demo: {
      async seedOnce(build) {
        tx(() => {
          if (getMeta.get(SEEDED) || conversations.any()) return;
          const data = build();
          for (const g of data.groups) users.insertGroup(g.id, g.name, g.created_at, g.members);
          for (const c of data.conversations) {
            conversations.insertRow(c);
          }
          for (const m of data.memberships) conversations.insertMembership(m);
          for (const m of data.messages) messages.insertRow(m);
          for (const a of data.attachments) messages.insertAttachmentRow(a);
          for (const r of data.reactions) messages.insertReactionRow(r);
          for (const [id, at] of Object.entries(data.activity)) users.touch(id, at);
          setMeta.run(SEEDED, "1");
        });
      },
    },
    presence: {
      async seen(userId, now) {
        lastSeen.set(userId, now);
      },
      lastSeen: async (userId) => lastSeen.get(userId),
    },
    /**
     * Rows changed through this connection (total_changes) or commits by any other
     * connection to the same file (data_version).
     */
    version() {
      const own = (changes.get() as { changes: number }).changes;
      return `${own}.${othersVersion()}`;
    },
    publishSent(event) {
      for (const listener of sentListeners) listener(event);
    },
    async onSent(listener) {
      sentListeners.push(listener);
    },
    isLeader: () => true,
    schema: MIGRATIONS.length,
    async ping() {
      ping.get();
    },
    async close() {
      clearInterval(watchOthers);
      if (db.isOpen) db.close();
    },
  };
}
