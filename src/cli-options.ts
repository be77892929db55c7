// The command line as data: every command's options (what parseArgs reads) and the help
// text. No side effects, so the tests can read what the CLI knows without running it.
import type { ParseArgsOptionsConfig } from "node:util";

const USAGE_LINES = {
  client: `  parley [--base-url URL] [--token-file PATH]   open the client`,
  serve: `  parley serve [--host H] [--port N] [--db PATH|:memory:|postgres://…] [--demo]
               [--no-demo-replies] [--max-connections N]
               [--max-connections-per-address N] [--max-upload SIZE]
               [--upload-quota SIZE] [--metrics HOST:PORT]
               [--log-format text|json] [--log-file PATH]
                                                run the reference server alone`,
  ssh: `  parley ssh [--host H] [--port N] [--db PATH|:memory:|postgres://…] [--demo [shared]]
             [--authorized-keys PATH] [--idle-minutes N] [--threads N] [--max-connections N]
             [--max-connections-per-address N] [--max-sessions N]
             [--max-sessions-per-connection N] [--max-sessions-per-user N]
             [--metrics HOST:PORT] [--log-format text|json] [--log-file PATH]
                                                serve the client over SSH (ssh -p N alice@H)`,
  web: `  parley web [--host H] [--port N] [--db PATH|:memory:|postgres://…]
             [--demo [shared]] [--origin URL] [--trust-proxy ADDR,…] [--threads N]
             [--max-sessions N] [--max-sessions-per-address N] [--max-connections N]
             [--max-connections-per-address N] [--idle-minutes N]
             [--log-format text|json] [--log-file PATH]
                                                serve the client to browsers (xterm.js)`,
  users: `  parley users add|list|token|tokens|revoke|remove|restore [NAME]
               [--db PATH|postgres://…] [--token-name T] [--expires 30d|12h|DATE]
                                                the people of a server, and their tokens`,
  groups: `  parley groups add|remove NAME --members A,B | list [--db PATH|postgres://…]
                                                groups, for group conversations`,
};

const OPTION_SECTIONS = {
  client: `Client options:
  --base-url URL      server to use (else PARLEY_BASE_URL, else the config file's
                      "baseUrl", else an embedded demo server on a free loopback port)
  --token-file PATH   read the access token from this file (else PARLEY_TOKEN,
                      else the config file's "token"); never pass a token as an argument`,
  serve: `Server options (parley serve):
  --host H            address to bind (default 127.0.0.1; anything else warns)
  --port N            port (default 4317; 0 picks a free one)
  --db PATH           SQLite database file, or :memory:, or a postgres:// URL (else
                      PARLEY_DATABASE_URL, else $XDG_DATA_HOME/parley/server.db): several
                      instances may share a PostgreSQL one; ?connect_timeout=SECONDS
                      (default 5) bounds the wait for PostgreSQL
  --demo              seed demo users and conversations, and print their tokens; without
                      it the database starts empty: add people with parley users add NAME
  --no-demo-replies   demo users do not answer messages
  --max-connections N TCP connections at once (default 1000)
  --max-connections-per-address N
                      from one IP address (default 100; behind a reverse proxy all come
                      from the proxy's). A request's headers must come within 10 s, all
                      of it within 30 s
  --max-upload SIZE   the largest file POST /v1/files takes (default 25MB; 0: no uploads)
  --upload-quota SIZE what one person's uploaded files may take in all (default 1GB)
  --metrics HOST:PORT serve Prometheus metrics at GET /metrics on this address of their
                      own (with PARLEY_METRICS_TOKEN set, also on --port behind it);
                      GET /healthz and GET /readyz answer on --port without a token
  --log-format F      text (default: time, level, message) or json (one object a line)
  --log-file PATH     append the log here (0600) rather than to stderr; SIGHUP reopens it`,
  ssh: `SSH options (parley ssh):
  --host H            address to bind (default 127.0.0.1; anything else warns)
  --port N            port (default 2222; 0 picks a free one)
  --db PATH           SQLite database file, or :memory: (default: $XDG_DATA_HOME/parley/ssh.db),
                      or a postgres:// URL (the same database as parley serve's, say)
  --demo              let anyone in as a demo user, with any key or none (ssh -p N alice@H):
                      each session gets a demo world of its own (seeded in memory, its
                      bots answering that visitor alone, gone when the session ends)
  --demo shared       one demo world for everyone (in --db), to chat with each other
  --idle-minutes N    end a session nobody typed in for N minutes (default with --demo
                      15, else never)
  --authorized-keys PATH
                      keys that may sign in (default ~/.ssh/authorized_keys; with --demo
                      and no such flag, any key, as any demo user). Each key signs in only
                      as the user its line names: parley-user="alice" ssh-ed25519 AAAA…
  --threads N         worker threads that draw the sessions' screens (default: one per
                      core but one, 1 to 8; 0: everything on the main thread)
  --max-connections N TCP connections at once, signed in or not (default 200)
  --max-connections-per-address N
                      from one IP address (default 20); each has 20 s to sign in
  --max-sessions N    live sessions in all, and so demo worlds at once (default 64)
  --max-sessions-per-connection N
                      sessions one ssh connection may open (default 4)
  --max-sessions-per-user N
                      live sessions of one user (default 8)
  --metrics HOST:PORT Prometheus metrics, as for parley serve (ssh sessions included)
  --log-format F, --log-file PATH
                      the log, as for parley serve (SIGHUP reopens the file)
  Without --demo the database starts empty: add people with parley users add NAME.`,
  web: `Web options (parley web), the client in a browser at http://H:N/:
  --host H            address to bind (default 127.0.0.1; anything else warns). On the
                      internet, put it behind a TLS proxy that passes WebSockets on
  --port N            port (default 8080; 0 picks a free one)
  --db PATH           without --demo, whose people sign in, each with a token of theirs
                      typed into the page (default: $XDG_DATA_HOME/parley/web.db; add
                      people with parley users add NAME --db PATH)
  --demo              straight in, no sign-in: each visitor gets a demo world of their
                      own (seeded in memory, its bots answering them alone, gone when
                      they leave); some 4 to 5 MiB of server memory each
  --demo shared       one demo world for every visitor, to chat with each other
  --origin URL        a page address besides the server's own that may open sessions
                      (a proxy's public https://chat.example.com), repeatable
  --trust-proxy ADDR,…
                      reverse proxies (addresses or ranges: 127.0.0.1, 10.0.0.0/8) whose
                      X-Forwarded-For names the visitor, for the per-address caps and the
                      log; their own connections are capped in all only. Default: none
  --threads N         as for parley ssh
  --max-sessions N    visitors at once, and so demo worlds (default 64); past it a
                      visitor is told the server is full
  --max-sessions-per-address N
                      visitors from one IP address at once (default 4)
  --max-connections N TCP connections at once, page loads included (default 400)
  --max-connections-per-address N
                      from one IP address (default 20)
  --idle-minutes N    end a session nobody typed in for N minutes (default 15)
  --log-format F, --log-file PATH
                      the log, as for parley serve
  Limits: a message from a browser is at most 260 KiB, typing and pastes are bounded as
  for parley ssh, and a page has 10 s to start its session.`,
  users: `People (parley users), on the database of parley serve or parley ssh:
  parley users add NAME      add a person; their token alone on stdout, once (only its hash
                             is kept), what happened on stderr
  parley users list          everyone: contact id, tokens, last activity, removed or not
  parley users token NAME    a new token (stdout, once) named by --token-name (default
                             "default"), replacing theirs of that name; the others still work
  parley users tokens NAME   their tokens: name, created, last used, expiry
  parley users revoke NAME   every token of theirs (or --token-name's) stops working; their
                             ssh key does not: take its line out of the keys file, or remove them
  parley users remove NAME   all their tokens revoked, out of their groups, their streams and
                             parley ssh sessions ended, their key refused; messages stay
  parley users restore NAME  a removed person may be given tokens again
  --token-name T      which token (laptop, phone; default "default")
  --expires 30d|12h|DATE
                      the token stops working then (a date is UTC midnight)
  --db PATH           SQLite database file, or a postgres:// URL (else PARLEY_DATABASE_URL,
                      else $XDG_DATA_HOME/parley/server.db); parley ssh's is ssh.db.
                      Only parley serve and parley ssh make a database: on one that is
                      not there, users and groups say so and exit 2
  A name is 1 to 32 of a-z, 0-9, ".", "_", "-"; the contact id is ct_NAME.`,
  groups: `Groups (parley groups), on the same databases:
  parley groups add NAME --members A,B     make group grp_NAME, or add members to it
                                           (unknown or removed people are refused)
  parley groups remove NAME --members A,B  take members out of the group and its
                                           conversation (what they wrote stays)
  parley groups list                       every group and its members
  --members A,B       user names, comma-separated
  --db PATH           as for parley users`,
};

const COMMON = `Environment:
  PARLEY_BASE_URL     server address, e.g. http://127.0.0.1:4317
  PARLEY_TOKEN        access token
  PARLEY_DATABASE_URL the database of parley serve, users and groups when there is no
                      --db (postgres://…)
  PARLEY_METRICS_TOKEN
                      parley serve answers GET /metrics on its port to this bearer token
  XDG_CONFIG_HOME     config file: $XDG_CONFIG_HOME/parley/config.json
  XDG_DATA_HOME       embedded server's database: $XDG_DATA_HOME/parley/parley.db
  XDG_STATE_HOME      remembered identity, crash logs, drafts and unsent changes:
                      $XDG_STATE_HOME/parley/
  XDG_CACHE_HOME      what was last seen of each server: $XDG_CACHE_HOME/parley/
  NO_COLOR            no colour (also FORCE_COLOR=0)
  VISUAL, EDITOR      the editor Ctrl+G opens the draft in (else vi)
  BROWSER             what o opens a link with, before xdg-open / open
  The XDG variables are honoured on every platform. Unset, they default to ~/.config,
  ~/.local/share, ~/.local/state and ~/.cache on Linux; on macOS to
  ~/Library/Preferences, ~/Library/Application Support, ~/Library/Logs and
  ~/Library/Caches.

Config file ($XDG_CONFIG_HOME/parley/config.json, usually ~/.config/parley/):
  {"baseUrl": "https://chat.example.com", "token": "…", "username": "alice",
   "bell": true, "notifications": true,
   "notify": "all",                 all | mentions (messages that say @you) | none
   "notifyConversations": {"grp_team": "mentions"},   per conversation id
   "theme": "auto",                 auto (asks the terminal) | dark | light | high-contrast
   "mouse": true,                   wheel and clicks; Shift+drag still selects text
   "keys": {"message.react": "x"}}  your own keys for a binding (docs/using.md)

Keys: press ? in the client for every key.
Exit codes: 0 ok, 1 error, 2 usage.`;

export type Command = keyof typeof USAGE_LINES;

/** The help: everything, with `command`'s usage and options first. */
export function helpFor(command: Command = "client"): string {
  const order: Command[] = [
    command,
    ...(["client", "serve", "ssh", "web", "users", "groups"] as const).filter((c) => c !== command),
  ];
  const title =
    command === "client" ? "parley: a full-screen terminal chat client" : `parley ${command}`;
  return [
    title,
    "",
    "Usage:",
    ...order.map((c) => USAGE_LINES[c]),
    "  parley [COMMAND] --help | --version",
    "",
    ...order.map((c) => `${OPTION_SECTIONS[c]}\n`),
    COMMON,
  ].join("\n");
}

export const SERVE_OPTIONS = {
  host: { type: "string", default: "127.0.0.1" },
  port: { type: "string", default: "4317" },
  db: { type: "string" },
  demo: { type: "boolean", default: false },
  "no-demo-replies": { type: "boolean", default: false },
  "max-connections": { type: "string" },
  "max-connections-per-address": { type: "string" },
  "max-upload": { type: "string" },
  "upload-quota": { type: "string" },
  metrics: { type: "string" },
  "log-format": { type: "string" },
  "log-file": { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsOptionsConfig;

export const SSH_OPTIONS = {
  host: { type: "string", default: "127.0.0.1" },
  port: { type: "string", default: "2222" },
  db: { type: "string" },
  demo: { type: "boolean", default: false },
  "authorized-keys": { type: "string" },
  threads: { type: "string" },
  "max-connections": { type: "string" },
  "max-connections-per-address": { type: "string" },
  "max-sessions": { type: "string" },
  "max-sessions-per-connection": { type: "string" },
  "max-sessions-per-user": { type: "string" },
  "idle-minutes": { type: "string" },
  metrics: { type: "string" },
  "log-format": { type: "string" },
  "log-file": { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsOptionsConfig;

export const WEB_OPTIONS = {
  host: { type: "string", default: "127.0.0.1" },
  port: { type: "string", default: "8080" },
  db: { type: "string" },
  demo: { type: "boolean", default: false },
  origin: { type: "string", multiple: true },
  "trust-proxy": { type: "string", multiple: true },
  threads: { type: "string" },
  "max-sessions": { type: "string" },
  "max-sessions-per-address": { type: "string" },
  "max-connections": { type: "string" },
  "max-connections-per-address": { type: "string" },
  "idle-minutes": { type: "string" },
  "log-format": { type: "string" },
  "log-file": { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsOptionsConfig;

/**
 * `--demo shared` (or `--demo=shared`, `--demo own`): the word after --demo says whose
 * world it is. Returns the arguments with it taken out (a bare --demo left for parseArgs).
 */
export function takeDemoWorld(args: string[]): { args: string[]; world: "own" | "shared" } {
  let world: "own" | "shared" = "own";
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const inline = /^--demo=(own|shared)$/.exec(arg);
    if (inline) {
      world = inline[1] as "own" | "shared";
      rest.push("--demo");
    } else if (arg === "--demo" && (args[i + 1] === "shared" || args[i + 1] === "own")) {
      world = args[++i] as "own" | "shared";
      rest.push("--demo");
    } else rest.push(arg);
  }
  return { args: rest, world };
}

export const USERS_OPTIONS = {
  db: { type: "string" },
  "token-name": { type: "string" },
  expires: { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsOptionsConfig;

export const GROUPS_OPTIONS = {
  db: { type: "string" },
  members: { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsOptionsConfig;

/** --token exists only to be refused, with the reason (a token on the command line shows in `ps`). */
export const CLIENT_OPTIONS = {
  "base-url": { type: "string" },
  help: { type: "boolean", short: "h" },
  "token-file": { type: "string" },
  token: { type: "string" },
} satisfies ParseArgsOptionsConfig;

/** Every command and its options; the client is what runs without a command. */
export const COMMANDS = {
  serve: SERVE_OPTIONS,
  ssh: SSH_OPTIONS,
  web: WEB_OPTIONS,
  users: USERS_OPTIONS,
  groups: GROUPS_OPTIONS,
} as const;

/** The environment variables parley reads. */
export const ENVIRONMENT = [
  "PARLEY_BASE_URL",
  "PARLEY_TOKEN",
  "PARLEY_DATABASE_URL",
  "PARLEY_METRICS_TOKEN",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  "NO_COLOR",
  "VISUAL",
  "EDITOR",
  "BROWSER",
] as const;
