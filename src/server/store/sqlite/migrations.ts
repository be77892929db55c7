// Ordered schema migrations. Append only: never edit one that has shipped.
export const MIGRATIONS: readonly string[] = [
  // 1: users, groups, conversations with per-user state, messages and what hangs off them.
  `
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    phone_number TEXT,
    avatar_url TEXT,
    token TEXT NOT NULL UNIQUE,
    last_active_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE groups (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE group_members (
    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
  ) WITHOUT ROWID;
  CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    group_id TEXT UNIQUE REFERENCES groups(id) ON DELETE CASCADE,
    -- "<lower user id>|<higher user id>" for a conversation between two contacts
    pair_key TEXT UNIQUE,
    pinned_message_id TEXT,
    last_active_at INTEGER,
    created_at INTEGER NOT NULL,
    CHECK ((group_id IS NULL) <> (pair_key IS NULL))
  );
  -- Who sees a conversation, and their own settings on it.
  CREATE TABLE memberships (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    contact_id TEXT REFERENCES users(id),
    is_pinned INTEGER NOT NULL DEFAULT 0,
    is_muted INTEGER NOT NULL DEFAULT 0,
    archived_at INTEGER,
    last_opened_at INTEGER,
    PRIMARY KEY (user_id, conversation_id)
  ) WITHOUT ROWID;
  CREATE INDEX memberships_by_conversation ON memberships(conversation_id);
  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    sender_id TEXT NOT NULL REFERENCES users(id),
    body TEXT NOT NULL,
    read_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER
  );
  CREATE INDEX messages_by_conversation ON messages(conversation_id, created_at DESC, id DESC);
  CREATE INDEX messages_by_time ON messages(created_at DESC, id DESC);
  CREATE INDEX messages_unread ON messages(conversation_id) WHERE read_at IS NULL;
  CREATE TABLE reactions (
    message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- order in which the names were first used on the message
    position INTEGER NOT NULL,
    usernames TEXT NOT NULL, -- JSON array of user names
    PRIMARY KEY (message_id, name)
  ) WITHOUT ROWID;
  CREATE TABLE attachments (
    id TEXT PRIMARY KEY,
    message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    filename TEXT,
    file_url TEXT NOT NULL,
    file_type TEXT,
    file_size INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX attachments_by_message ON attachments(message_id, id);
  CREATE TABLE idempotency_keys (
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_time ON idempotency_keys(created_at);
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 2: the events /v1/events sends and replays; AUTOINCREMENT so an id is never used twice.
  `
  CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    recipients TEXT NOT NULL, -- JSON array of user ids
    created_at INTEGER NOT NULL DEFAULT (unixepoch())
  );
  CREATE INDEX events_by_time ON events(created_at);
  `,
  // 3: tokens stored as their SHA-256, several per user (parley users token / revoke); the
  // demo users' tokens kept in plain text apart, for the banner of `parley serve --demo`;
  // people removed but their messages kept; the id that makes two instances one server.
  // users.token cannot be dropped (SQLite does not drop a UNIQUE column): it keeps the id.
  `
  CREATE TABLE tokens (
    hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX tokens_by_user ON tokens(user_id);
  CREATE TABLE demo_tokens (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    token TEXT NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO tokens (hash, user_id, created_at)
    SELECT parley_sha256(token), id, created_at FROM users;
  INSERT INTO demo_tokens (user_id, token)
    SELECT id, token FROM users
    WHERE id IN ('ct_alice', 'ct_bob', 'ct_carol', 'ct_dave', 'ct_erin', 'ct_frank');
  UPDATE users SET token = id;
  ALTER TABLE users ADD COLUMN removed_at INTEGER;
  INSERT OR IGNORE INTO meta (key, value) VALUES ('server_id', lower(hex(randomblob(16))));
  `,
  // 4: named tokens (several per person: laptop, phone), each with when it was last used
  // and an optional expiry. A person had one token at most before: it is "default".
  `
  ALTER TABLE tokens ADD COLUMN name TEXT NOT NULL DEFAULT 'default';
  ALTER TABLE tokens ADD COLUMN last_used_at INTEGER;
  ALTER TABLE tokens ADD COLUMN expires_at INTEGER;
  UPDATE tokens SET name = 'token-' || substr(hash, 1, 8)
    WHERE hash NOT IN (SELECT min(hash) FROM tokens GROUP BY user_id);
  CREATE UNIQUE INDEX tokens_by_name ON tokens(user_id, name);
  `,
  // 5: the demo's tokens no longer kept in plain text: the banner's are kept in a file
  // beside the database (src/server/demo/token-file.ts). Those kept until now stop
  // working (they were readable in the database and its backups); a row of demo_tokens
  // now only marks a demo user whose token the banner prints.
  `
  DELETE FROM tokens WHERE hash IN (SELECT parley_sha256(token) FROM demo_tokens);
  UPDATE demo_tokens SET token = '';
  `,
  // 6: uploaded files (POST /v1/files), their bytes in chunks so that neither an upload nor
  // a download holds a whole file in memory.
  `
  CREATE TABLE files (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES users(id),
    filename TEXT NOT NULL,
    file_type TEXT NOT NULL,
    size INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX files_by_owner ON files(owner_id);
  CREATE TABLE file_chunks (
    file_id TEXT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (file_id, seq)
  ) WITHOUT ROWID;
  `,
];
