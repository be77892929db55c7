// Starts the full-screen client: resolves server and token (starting the embedded demo
// server when none is configured), renders with Ink in the alternate screen, and makes
// sure the terminal is restored on every way out: q, Ctrl+C, SIGTERM, SIGHUP (a dropped
// SSH connection), and an uncaught error (logged to a file, named in one line on exit).
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  environmentManager,
  MutationCache,
  QueryCache,
  QueryClient,
  QueryClientProvider,
} from "@tanstack/react-query";
import { type Instance, render } from "ink";
import { createApi } from "../api/client.ts";
import {
  ConfigError,
  type Paths,
  parleyPaths,
  rememberedUsername,
  rememberUsername,
  resolveClientConfig,
} from "../config.ts";
import { App } from "./App.tsx";
import { ErrorBoundary } from "./components/ErrorBoundary.tsx";
import { KeypressProvider } from "./input.tsx";
import {
  createSessionState,
  newSessionIdentity,
  type Session,
  SessionProvider,
} from "./session.tsx";
import type { StatusLine } from "./status.ts";
import { terminalOut } from "./terminal.ts";
import { ThemeContext, themeFor } from "./theme.ts";

export type ClientArgs = { baseUrl?: string; tokenFile?: string };

export function createQueryClient(status: StatusLine): QueryClient {
  // TanStack Query takes any runtime without `window` for a server renderer, and then
  // never schedules refetchInterval timers (so no polling) and never garbage-collects.
  // A terminal client is a long-lived interactive client.
  environmentManager.setIsServer(() => false);
  return new QueryClient({
    queryCache: new QueryCache({
      onSuccess: () => status.noteQueryResult(null),
      onError: (error) => status.noteQueryResult(error),
    }),
    mutationCache: new MutationCache({
      onSuccess: () => status.noteQueryResult(null),
      onError: (error) => status.noteQueryResult(error),
    }),
    defaultOptions: {
      // The api client already retries reads with backoff; polling does the rest.
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/** The React tree of the client, shared by the real terminal and the tests. */
export function Root({
  session,
  queryClient,
  env = process.env,
  onRenderError,
}: {
  session: Session;
  queryClient: QueryClient;
  env?: NodeJS.ProcessEnv;
  onRenderError?: (error: Error) => void;
}) {
  return (
    <ThemeContext.Provider value={themeFor(env)}>
      <ErrorBoundary onError={onRenderError}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider session={session}>
            <KeypressProvider>
              <App />
            </KeypressProvider>
          </SessionProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </ThemeContext.Provider>
  );
}

/**
 * Renders the client full-screen on the given streams: the real terminal, or one SSH
 * session's channel (which carries its own size and resize events).
 */
export function mountClient(options: {
  session: Session;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  onRenderError?: (error: Error) => void;
  /** The session's server state; a new one by default (tests pass theirs to look into). */
  queryClient?: QueryClient;
}): Instance {
  const queryClient = options.queryClient ?? createQueryClient(options.session.status);
  // On a resize the terminal may already hold a frame of the old size, reflowed or
  // scrolled (over SSH a poll can draw one before the window change arrives), and Ink's
  // relative erase would then miss. So every resize starts from a clean screen and a
  // full frame. Registered before Ink's own listener, which then draws that frame.
  const { stdout } = options;
  let mounted: Instance | undefined;
  const repaint = () => {
    stdout.write("\x1b[2J\x1b[H");
    mounted?.clear();
  };
  stdout.on("resize", repaint);
  const instance = render(
    <Root
      session={options.session}
      queryClient={queryClient}
      env={options.env}
      onRenderError={options.onRenderError}
    />,
    {
      stdin: options.stdin,
      stdout: options.stdout,
      stderr: options.stderr,
      // The caller knows this is a terminal; Ink's own guess turns one non-interactive when CI is set.
      interactive: true,
      alternateScreen: true,
      incrementalRendering: true,
      patchConsole: false,
      exitOnCtrlC: false,
      maxFps: 60,
    },
  );
  mounted = instance;
  // A finished session (an SSH user who left) must not keep its cache until garbage collection.
  const release = () => {
    stdout.off("resize", repaint);
    queryClient.clear();
  };
  instance.waitUntilExit().then(release, release);
  return instance;
}

function identityKey(baseUrl: string, token: string): string {
  return `${baseUrl} ${createHash("sha256").update(token).digest("hex").slice(0, 16)}`;
}

function writeCrashLog(paths: Paths, error: unknown): string {
  const file = join(paths.state, `crash-${new Date().toISOString().replace(/[:.]/g, "-")}.log`);
  try {
    mkdirSync(paths.state, { recursive: true });
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writeFileSync(file, `${new Date().toISOString()}\n${detail}\n`, { mode: 0o600 });
  } catch {
    return "(the crash log could not be written)";
  }
  return file;
}

export async function runClient(args: ClientArgs): Promise<number> {
  const env = process.env;
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    process.stderr.write(
      "parley: this is a full-screen app; run it in a terminal (stdin and stdout must be a TTY).\n",
    );
    return 1;
  }
  if (!env.TERM || env.TERM === "dumb") {
    process.stderr.write(
      `parley: TERM=${env.TERM ?? "(unset)"} cannot move the cursor or switch screens, which a full-screen app needs. Try TERM=xterm-256color.\n`,
    );
    return 1;
  }
  const paths = parleyPaths();
  const config = resolveClientConfig({ ...args, env, paths });

  let target: {
    baseUrl: string;
    token: string | undefined;
    username: string | undefined;
    label?: string;
  };
  let embedded: { close(): Promise<void> } | undefined;
  if (config.baseUrl === undefined) {
    const { startServer } = await import("../server/index.ts");
    mkdirSync(paths.data, { recursive: true });
    const server = await startServer({
      db: join(paths.data, "parley.db"),
      demo: true,
      demoReplies: true,
    });
    const user = server.demoUsers[0]!;
    embedded = server;
    target = {
      baseUrl: server.url,
      token: user.token,
      username: user.username,
      label: "the demo (embedded server)",
    };
  } else {
    target = { baseUrl: config.baseUrl, token: config.token, username: config.username };
  }
  const { baseUrl, token } = target;
  if (!token) {
    throw new ConfigError(
      `No token for ${baseUrl}. Set PARLEY_TOKEN, put "token" in ${paths.configFile}, or use --token-file PATH.`,
    );
  }
  const key = identityKey(baseUrl, token);
  const me = newSessionIdentity(target.username ?? rememberedUsername(paths, key));
  const session: Session = {
    api: createApi({ baseUrl, token }),
    baseUrl,
    serverLabel: target.label,
    me,
    onIdentity: (name) => rememberUsername(paths, key, name),
    notify: { bell: config.bell, desktop: config.notifications },
    terminal: terminalOut(process.stdout, env),
    ...createSessionState(),
  };

  let crash: unknown;
  const instance = mountClient({
    session,
    env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    onRenderError: (error) => {
      crash ??= error;
    },
  });

  const finish = (error?: unknown) => {
    if (error !== undefined) crash ??= error;
    instance.unmount();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    exitCode = signal === "SIGHUP" ? 129 : 143;
    finish();
  };
  let exitCode = 0;
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  process.on("uncaughtException", finish);
  process.on("unhandledRejection", finish);
  // A dropped SSH connection also shows as a terminal that ends or fails (EIO). The
  // stdin listener stays: Ink's last setRawMode(false) on a terminal that is gone fails
  // after the unmount, and must not become an uncaught error.
  const hangUp = () => {
    if (exitCode === 0) exitCode = 129;
    finish();
  };
  process.stdout.on("error", hangUp);
  process.stdin.on("error", hangUp);
  process.stdin.on("end", hangUp);

  try {
    await instance.waitUntilExit();
  } catch (error) {
    crash ??= error;
  }
  process.off("SIGTERM", onSignal);
  process.off("SIGHUP", onSignal);
  process.off("uncaughtException", finish);
  process.off("unhandledRejection", finish);
  await embedded?.close().catch(() => {});
  if (crash !== undefined) {
    const file = writeCrashLog(paths, crash);
    process.stderr.write(
      `parley: ${crash instanceof Error ? crash.message : String(crash)} (details in ${file})\n`,
    );
    return 1;
  }
  return exitCode;
}
