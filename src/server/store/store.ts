// The storage of the reference server, as the routes, the idempotency middleware and the
// demo see it: one asynchronous interface, two implementations (sqlite/ and postgres/).
// Each method is one unit of work: what must change together changes in one transaction
// inside the store, so no caller composes transactions and no SQL lives outside the store.
import type { AttachmentJson, ConversationJson, MessageJson } from "../wire.ts";

export type User = {
  id: string;
  username: string;
  phone_number: string | null;
  avatar_url: string | null;
  last_active_at: number | null;
  created_at: number;
};

export type NewUser = Omit<User, "last_active_at"> & { last_active_at?: number | null };

/**
 * A demo user whose token the banner prints: one the operator has not given a token of
 * their own, revoked or removed. The token itself is not in the database (demo/users.ts).
 */
export type DemoToken = { id: string; username: string };

/** A person as `parley users list` shows them. */
export type Account = {
  id: string;
  username: string;
  created_at: number;
  last_active_at: number | null;
  /** Tokens that sign in as them now. */
  tokens: number;
  /** Set by `parley users remove`: they cannot sign in, their messages stay. */
  removed_at: number | null;
};

export type GroupInfo = { id: string; name: string; members: string[] };

/** A token as it is stored: its SHA-256, the name it is known by, when it stops working. */
export type NewToken = { hash: string; name: string; expires_at: number | null };

/** A token as `parley users tokens` lists it (never the token itself). */
export type TokenInfo = {
  name: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
};

/** Where a page starts: the sort key and id of the item named by `starting_after` / `ending_before`. */
export type Cursor = { key: number; id: string };

export type Page = { after?: Cursor; before?: Cursor };

export type ConversationFilter = {
  muted?: boolean | undefined;
  archived?: boolean | undefined;
  pinned?: boolean | undefined;
  groupId?: string | undefined;
};

export type ConversationChanges = {
  /** Shared by all members; null unpins. */
  pinnedMessageId?: string | null | undefined;
  /** The user's own settings. */
  isPinned?: boolean | undefined;
  isMuted?: boolean | undefined;
  archivedAt?: number | null | undefined;
};

/** A row of the messages table, as both stores read it. */
export type MessageRow = {
  id: string;
  conversation_id: string;
  sender_id: string;
  body: string;
  read_at: number | null;
  created_at: number;
  updated_at: number | null;
};

/** The bare message, for permission checks. */
export type MessageHead = { id: string; conversation_id: string; sender_id: string; body: string };

export type MessageScope = { conversationId: string } | { userId: string };

export type NewMessage = {
  id: string;
  conversationId: string;
  senderId: string;
  body: string;
  createdAt: number;
};

export type NewAttachment = {
  id: string;
  filename: string | null;
  file_url: string;
  file_type: string | null;
  file_size: number | null;
};

export type MessageChanges = {
  /** New text; sets `updated_at` to `at`. */
  body?: string | undefined;
  /**
   * The reactor's own reactions: true adds them to that name's list, false takes them off
   * (a list left empty removes the name). Nobody else's reaction changes.
   */
  reactions: readonly (readonly [name: string, on: boolean])[];
  reactor: string;
  attachments: readonly NewAttachment[];
  at: number;
};

export type RememberedResponse = { fingerprint: string; status: number; body: string };

/** The answer to a claimed Idempotency-Key, stored with what the request wrote. */
export type IdempotentAnswer = {
  userId: string;
  key: string;
  response: RememberedResponse;
  now: number;
};

/**
 * What `idempotency.claim` found: the key is now this request's to answer ("claimed"),
 * another request holds it ("pending"), or it was answered before ("done"). A claim names
 * the instance that holds it; a claim whose instance is gone (killed, crashed) is taken
 * over at once, which is safe because a message and its key's answer commit together.
 */
export type Claim =
  | { state: "claimed" }
  | { state: "pending"; fingerprint: string }
  | { state: "done"; response: RememberedResponse };

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A claim older than this is taken over even when its instance seems alive. */
export const IDEMPOTENCY_ABANDONED_SECONDS = 60;

/** The demo conversations, as rows: written once, in one transaction. */
export type DemoData = {
  groups: { id: string; name: string; created_at: number; members: string[] }[];
  conversations: {
    id: string;
    group_id: string | null;
    pair_key: string | null;
    pinned_message_id: string | null;
    last_active_at: number | null;
    created_at: number;
  }[];
  memberships: {
    user_id: string;
    conversation_id: string;
    contact_id: string | null;
    is_pinned: boolean;
    is_muted: boolean;
    archived_at: number | null;
    last_opened_at: number | null;
  }[];
  messages: Omit<MessageRow, "updated_at">[];
  attachments: AttachmentJson[];
  reactions: { message_id: string; name: string; position: number; usernames: string[] }[];
  /** Each user's newest activity. */
  activity: Record<string, number>;
};

export type EventType =
  | "message.created"
  | "message.updated"
  | "message.deleted"
  | "conversation.created"
  | "conversation.updated"
  | "conversation.deleted"
  /** One per opening that marked others' messages read; its resource is a `ReadMark`. */
  | "messages.read"
  /**
   * A person's tokens were revoked or replaced, or they were removed: the instances end
   * their streams (and `parley ssh` their sessions). Its resource is an `AccessEnd`; no
   * client is sent it.
   */
  | "access.ended";

/** Why a person's access ended, and who they are (for the instances' log lines). */
export type AccessEnd = { why: "removed" | "token revoked" | "token replaced"; username: string };

export const encodeAccessEnd = ({ why, username }: AccessEnd): string => `${why}:${username}`;

export function decodeAccessEnd(resourceId: string): AccessEnd | undefined {
  const at = resourceId.indexOf(":");
  const why = resourceId.slice(0, at);
  if (why !== "removed" && why !== "token revoked" && why !== "token replaced") return undefined;
  return { why, username: resourceId.slice(at + 1) };
}

/** What a `messages.read` event keeps as its resource id: who read, and when. */
export type ReadMark = { readerId: string; readAt: number };

export const encodeReadMark = ({ readerId, readAt }: ReadMark): string => `${readAt}:${readerId}`;

export function decodeReadMark(resourceId: string): ReadMark | undefined {
  const at = resourceId.indexOf(":");
  const readAt = Number(resourceId.slice(0, at));
  if (at <= 0 || !Number.isSafeInteger(readAt)) return undefined;
  return { readerId: resourceId.slice(at + 1), readAt };
}

/**
 * A change, as the events table keeps it for /v1/events: what changed and who hears of it.
 * The data is read when the event is sent (the resource as it is then, for that user).
 */
export type StoredEvent = {
  /** Grows with every event, in commit order (also across PostgreSQL instances). */
  id: number;
  type: EventType;
  conversationId: string;
  /**
   * The message id for message events, the conversation id for conversation events, an
   * encoded `ReadMark` for `messages.read`.
   */
  resourceId: string;
  /** User ids: the conversation's members, or only the user whose own settings changed. */
  recipients: string[];
};

/** Events are kept at least this long and at least this many (contract.md "Events"). */
export const EVENTS_KEPT_SECONDS = 60 * 60;
export const EVENTS_KEPT_COUNT = 10_000;

/** An uploaded file as it is stored: its bytes are in chunks of their own (files.chunk). */
export type StoredFile = {
  /** The capability in its URL: random, unguessable. */
  id: string;
  owner_id: string;
  filename: string;
  file_type: string;
  /** Bytes stored so far; the whole file's once finished. */
  size: number;
  finished: boolean;
  created_at: number;
};

export type NewFile = Pick<StoredFile, "id" | "owner_id" | "filename" | "file_type" | "created_at">;

/** A message was sent through some instance: what the demo replier needs to know. */
export type SentEvent = { id: string; conversationId: string; senderId: string };

export interface Store {
  readonly kind: "sqlite" | "postgres";

  /** Made when the database was created: two instances of one database are one server. */
  readonly serverId: string;

  users: {
    /** The user a token signs in as: looked up by the token's SHA-256 (src/server/tokens.ts). */
    byTokenHash(hash: string): Promise<User | undefined>;
    byId(id: string): Promise<User | undefined>;
    /** Records activity; writes only when the stored time is older than `now`. */
    touch(id: string, now: number): Promise<void>;
    isGroupMember(groupId: string, userId: string): Promise<boolean>;
    /**
     * Inserts the demo users, each with the token of that hash if given, when there are no
     * users at all (once, also with several instances); returns the demo users the banner
     * prints a token for.
     */
    ensure(users: readonly (NewUser & { tokenHash: string | null })[]): Promise<DemoToken[]>;
  };

  /** The people and groups, for `parley users` / `parley groups` and contact search. */
  accounts: {
    /** False when the user name is taken. */
    add(user: NewUser, token: NewToken): Promise<boolean>;
    list(): Promise<Account[]>;
    /**
     * A token for the user, replacing their token of the same name. A removed user gets
     * none ("removed": `restore` first).
     */
    addToken(username: string, token: NewToken, now: number): Promise<"ok" | "missing" | "removed">;
    /** Their token named `name` (every token when undefined) stops working: how many did. */
    revoke(username: string, name: string | undefined): Promise<number | undefined>;
    /** Their tokens, by name; undefined when there is no such user. */
    tokens(username: string): Promise<TokenInfo[] | undefined>;
    /**
     * Revokes their tokens, takes them out of their groups and the groups' conversations,
     * and marks them removed.
     */
    remove(username: string, now: number): Promise<boolean>;
    /** A removed user may be given tokens again (their groups are not given back). */
    restore(username: string): Promise<"ok" | "missing" | "active">;
    /** Users (not removed) whose name starts with `prefix`, by name. */
    search(prefix: string, limit: number): Promise<{ id: string; username: string }[]>;
    /**
     * Creates the group, or adds the members to it; nothing is done when a name is unknown
     * or removed (they are returned).
     */
    addGroup(
      id: string,
      name: string,
      members: readonly string[],
      now: number,
    ): Promise<{ unknown: string[]; removed: string[] }>;
    /**
     * Takes members out of the group and of its conversation (what they wrote stays);
     * undefined when there is no such group, else the names that were not in it.
     */
    removeMembers(id: string, members: readonly string[]): Promise<string[] | undefined>;
    groups(): Promise<GroupInfo[]>;
    /** Records that a token signed a request in (the caller limits how often). */
    tokenUsed(hash: string, now: number): Promise<void>;
    /** Deletes the tokens past their expiry: how many. */
    dropExpired(now: number): Promise<number>;
  };

  conversations: {
    /** The conversation as `userId` sees it, or undefined when they are not a member. */
    visibleTo(id: string, userId: string): Promise<ConversationJson | undefined>;
    isMember(id: string, userId: string): Promise<boolean>;
    /** The sort key of a conversation the user sees, for a cursor. */
    cursor(id: string, userId: string): Promise<Cursor | undefined>;
    /** One more row than `limit` when there is more, in list order. */
    list(
      userId: string,
      filter: ConversationFilter,
      limit: number,
      page: Page,
    ): Promise<ConversationJson[]>;
    /** The pair's one conversation (created with `newId` when there is none); both are members. */
    openWithContact(userId: string, contactId: string, newId: string, now: number): Promise<string>;
    /** The group's one conversation (created with `newId` when there is none); every member sees it. */
    openWithGroup(groupId: string, newId: string, now: number): Promise<string>;
    /** `last_opened_at` = now, and the messages of others in it are read. */
    markOpened(id: string, userId: string, now: number): Promise<void>;
    update(id: string, userId: string, changes: ConversationChanges): Promise<void>;
    /** The conversation and all its messages, for every member. */
    remove(id: string): Promise<void>;
    members(id: string): Promise<{ id: string; username: string }[]>;
  };

  messages: {
    get(id: string): Promise<MessageJson | undefined>;
    /** Many at once (the events' fan-out renders a batch with one read); missing ones left out. */
    getMany(ids: readonly string[]): Promise<Map<string, MessageJson>>;
    head(id: string): Promise<MessageHead | undefined>;
    /** The sort key of a message within the scope, for a cursor. */
    cursor(id: string, scope: MessageScope): Promise<Cursor | undefined>;
    /** Newest first; one more row than `limit` when there is more. */
    list(scope: MessageScope, limit: number, page: Page): Promise<MessageJson[]>;
    /**
     * Stores the message with its attachments and makes it the conversation's latest
     * activity. With `answer`, completes that Idempotency-Key claim in the same transaction
     * (so a message is never stored without its key's answer); false, and nothing stored,
     * when this instance no longer holds the claim.
     */
    send(
      message: NewMessage,
      attachments: readonly NewAttachment[],
      answer?: IdempotentAnswer,
    ): Promise<boolean>;
    update(id: string, changes: MessageChanges): Promise<void>;
    /** Adds `username` to the reaction `name` unless it is there (the demo's reactions). */
    addReaction(id: string, name: string, username: string): Promise<void>;
    /** Deletes it, unpins it, and moves the conversation's activity back. */
    remove(head: MessageHead): Promise<void>;
  };

  idempotency: {
    /** Claims (user, key) for this request, unless a live claim or an answer exists. */
    claim(userId: string, key: string, fingerprint: string, now: number): Promise<Claim>;
    /** The answer to a key this instance claimed, kept for 24 hours. */
    complete(answer: IdempotentAnswer): Promise<void>;
    /** Gives a key this instance claimed back: the request failed and may be tried again. */
    release(userId: string, key: string): Promise<void>;
  };

  /**
   * The events every change above appends, in the change's own transaction. Read by one
   * reader per instance (src/server/events/hub.ts) and by a stream that resumes.
   */
  events: {
    /** Events after `afterId` in id order, at most `limit`; with `userId`, only theirs. */
    after(afterId: number, limit: number, userId?: string): Promise<StoredEvent[]>;
    /** The newest event id (0 before any), and the newest id deleted by `prune` (0 if none). */
    bounds(): Promise<{ newest: number; pruned: number }>;
    /** Deletes the events older than `keptSeconds` but the newest `keptCount`. */
    prune(keptSeconds: number, keptCount: number): Promise<void>;
    /** Of these token hashes, the ones still valid, each with its user's id: one query for all streams. */
    tokenOwners(tokens: readonly string[]): Promise<Map<string, string>>;
    /** Called when events may have been appended, by this instance or (PostgreSQL) another. */
    onAppended(listener: () => void): void;
  };

  /**
   * Uploaded files (POST /v1/files), in the database on both stores, so every instance
   * serves them and a backup holds them. Written a chunk at a time, never whole in memory.
   */
  files: {
    /** An unfinished file, counted in its owner's use from its first chunk. */
    begin(file: NewFile): Promise<void>;
    /** Appends chunk `seq` (0, 1, …); answers the owner's bytes in all their files now. */
    append(id: string, ownerId: string, seq: number, bytes: Uint8Array): Promise<number>;
    /** The upload completed: the file may be fetched. */
    finish(id: string): Promise<void>;
    /** An upload that failed or was refused: the file and its chunks go. */
    abandon(id: string): Promise<void>;
    /** The owner's bytes in all their files, finished or not. */
    used(ownerId: string): Promise<number>;
    get(id: string): Promise<StoredFile | undefined>;
    /** Chunk `seq` of the file, or undefined past its last. */
    chunk(id: string, seq: number): Promise<Uint8Array | undefined>;
    /** Deletes uploads left unfinished since before `before` (a server stopped mid-upload). */
    dropUnfinished(before: number): Promise<number>;
  };

  demo: {
    /** Writes the demo conversations unless seeded before or the database has conversations. */
    seedOnce(build: () => DemoData): Promise<void>;
  };

  /**
   * Who made a request recently, for the demo replies; shared by every instance of a
   * PostgreSQL store.
   */
  presence: {
    seen(userId: string, now: number): Promise<void>;
    lastSeen(userId: string): Promise<number | undefined>;
  };

  /** Changes whenever the data may have, by this instance or another (for the page cache). */
  version(): string;
  /** Tells every instance (this one included) that a message was sent. */
  publishSent(event: SentEvent): void;
  /** Settles once it is known whether this instance leads (see isLeader), at the first listener. */
  onSent(listener: (event: SentEvent) => void): Promise<void>;
  /** True while this instance is the one that writes the demo replies. */
  isLeader(): boolean;

  /** The schema version the database is at (this parley's newest, once open). */
  readonly schema: number;
  /** Resolves when the database answers a trivial query (GET /readyz). */
  ping(): Promise<void>;
  /**
   * PostgreSQL: the pool's connections in use, idle and waiting on a lock (the pool
   * metric). SQLite has one connection, used synchronously: no pool to tell of.
   */
  pool?(): Promise<{ inUse: number; idle: number; waiting: number }>;

  close(): Promise<void>;
}
