// Ordered schema migrations for PostgreSQL. Append only: never edit one that has shipped.
// They run in one transaction under an advisory lock (index.ts), so instances that start
// together apply each one once and the others wait, then find the schema current.
export const MIGRATIONS: readonly string[] = [
  // 1: users, groups, conversations with per-user state, messages and what hangs off them;
  // the remembered Idempotency-Key answers and who made a request lately.
  `
  CREATE TABLE users (
    id text PRIMARY KEY,
    username text NOT NULL UNIQUE,
    phone_number text,
    avatar_url text,
    token text NOT NULL UNIQUE,
    last_active_at bigint,
    created_at bigint NOT NULL
  );
  CREATE TABLE groups (
    id text PRIMARY KEY,
    name text NOT NULL,
    created_at bigint NOT NULL
  );
  CREATE TABLE group_members (
    group_id text NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
    user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
  );
  CREATE TABLE conversations (
    id text PRIMARY KEY,
    -- one conversation per group and per contact pair, whichever instance creates it
    group_id text UNIQUE REFERENCES groups(id) ON DELETE CASCADE,
    -- "<lower user id>|<higher user id>" for a conversation between two contacts
    pair_key text UNIQUE,
    pinned_message_id text,
    last_active_at bigint,
    created_at bigint NOT NULL,
    CHECK ((group_id IS NULL) <> (pair_key IS NULL))
  );
  -- Who sees a conversation, and their own settings on it.
  CREATE TABLE memberships (
    user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    contact_id text REFERENCES users(id),
    is_pinned boolean NOT NULL DEFAULT false,
    is_muted boolean NOT NULL DEFAULT false,
    archived_at bigint,
    last_opened_at bigint,
    PRIMARY KEY (user_id, conversation_id)
  );
  CREATE INDEX memberships_by_conversation ON memberships(conversation_id);
  CREATE TABLE messages (
    id text PRIMARY KEY,
    conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    sender_id text NOT NULL REFERENCES users(id),
    body text NOT NULL,
    read_at bigint,
    created_at bigint NOT NULL,
    updated_at bigint
  );
  CREATE INDEX messages_by_conversation ON messages(conversation_id, created_at DESC, id DESC);
  CREATE INDEX messages_by_time ON messages(created_at DESC, id DESC);
  CREATE INDEX messages_unread ON messages(conversation_id) WHERE read_at IS NULL;
  CREATE TABLE reactions (
    message_id text NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    name text NOT NULL,
    -- order in which the names were first used on the message
    position integer NOT NULL,
    usernames jsonb NOT NULL,
    PRIMARY KEY (message_id, name)
  );
  CREATE TABLE attachments (
    id text PRIMARY KEY,
    message_id text NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    filename text,
    file_url text NOT NULL,
    file_type text,
    file_size bigint,
    created_at bigint NOT NULL
  );
  CREATE INDEX attachments_by_message ON attachments(message_id, id);
  CREATE TABLE idempotency_keys (
    user_id text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    -- 0 while the request that claimed the key runs
    status integer NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY (user_id, key)
  );
  CREATE INDEX idempotency_keys_by_time ON idempotency_keys(created_at);
  CREATE TABLE presence (
    user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    seen_at bigint NOT NULL
  );
  CREATE TABLE meta (
    key text PRIMARY KEY,
    value text NOT NULL
  );
  `,
  // 2: the events /v1/events sends and replays. Appended under an advisory lock held to
  // commit (index.ts), so ids are visible in the order they were given.
  `
  CREATE TABLE events (
    id bigserial PRIMARY KEY,
    type text NOT NULL,
    conversation_id text NOT NULL,
    resource_id text NOT NULL,
    recipients text[] NOT NULL,
    created_at bigint NOT NULL DEFAULT extract(epoch FROM now())::bigint
  );
  CREATE INDEX events_by_time ON events(created_at);
  `,
  // 3: tokens stored as their SHA-256, several per user (parley users token / revoke); the
  // demo users' tokens kept in plain text apart, for the banner of `parley serve --demo`;
  // people removed but their messages kept; the id that makes two instances one server.
  `
  CREATE TABLE tokens (
    hash text PRIMARY KEY,
    user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at bigint NOT NULL
  );
  CREATE INDEX tokens_by_user ON tokens(user_id);
  CREATE TABLE demo_tokens (
    user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    token text NOT NULL
  );
  INSERT INTO tokens (hash, user_id, created_at)
    SELECT encode(sha256(convert_to(token, 'UTF8')), 'hex'), id, created_at FROM users;
  INSERT INTO demo_tokens (user_id, token)
    SELECT id, token FROM users
    WHERE id IN ('ct_alice', 'ct_bob', 'ct_carol', 'ct_dave', 'ct_erin', 'ct_frank');
  ALTER TABLE users DROP COLUMN token;
  ALTER TABLE users ADD COLUMN removed_at bigint;
  INSERT INTO meta (key, value) VALUES ('server_id', md5(random()::text || clock_timestamp()::text))
    ON CONFLICT (key) DO NOTHING;
  `,
  // 4: named tokens (several per person: laptop, phone), each with when it was last used
  // and an optional expiry. A person had one token at most before: it is "default".
  `
  ALTER TABLE tokens ADD COLUMN name text NOT NULL DEFAULT 'default';
  ALTER TABLE tokens ADD COLUMN last_used_at bigint;
  ALTER TABLE tokens ADD COLUMN expires_at bigint;
  UPDATE tokens SET name = 'token-' || substr(hash, 1, 8)
    WHERE hash NOT IN (SELECT min(hash) FROM tokens GROUP BY user_id);
  CREATE UNIQUE INDEX tokens_by_name ON tokens(user_id, name);
  `,
  // 5: the demo's tokens no longer kept in plain text: the banner's are kept in a file
  // beside the database (src/server/demo/token-file.ts). Those kept until now stop
  // working (they were readable in the database and its backups); a row of demo_tokens
  // now only marks a demo user whose token the banner prints.
  `
  DELETE FROM tokens WHERE hash IN (SELECT encode(sha256(convert_to(token, 'UTF8')), 'hex') FROM demo_tokens);
  UPDATE demo_tokens SET token = '';
  `,
  // 6: uploaded files (POST /v1/files), their bytes in chunks so that neither an upload nor
  // a download holds a whole file in memory, and every instance serves them.
  `
  CREATE TABLE files (
    id text PRIMARY KEY,
    owner_id text NOT NULL REFERENCES users(id),
    filename text NOT NULL,
    file_type text NOT NULL,
    size bigint NOT NULL DEFAULT 0,
    finished boolean NOT NULL DEFAULT false,
    created_at bigint NOT NULL
  );
  CREATE INDEX files_by_owner ON files(owner_id);
  CREATE TABLE file_chunks (
    file_id text NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    seq integer NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (file_id, seq)
  );
  `,
];
