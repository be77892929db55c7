// The client once its server is known: the session, the kept files, the UI mounted with
// Ink in the alternate screen, and the terminal restored on every way out: q, Ctrl+C,
// SIGTERM, SIGHUP (a dropped SSH connection), and an uncaught error (logged to a file,
// named in one line on exit); and for a while on Ctrl+Z or SIGTSTP, until `fg`
// (src/client/job-control.ts). Loaded by src/client/main.ts once start-up is under way.
import { createHash } from "node:crypto";

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import {
  ConfigError,
  type Paths,
  type ResolvedClientConfig,
  rememberedUsername,
  rememberUsername,
} from "../config.ts";
import { setUserKeys } from "../ui/keys/bindings.ts";
import { waitingCount } from "../ui/queries/changes.ts";
import { prefetchStartScreen } from "../ui/queries/start.ts";
import type { StartView } from "../ui/screen/session.ts";
import { terminalOut } from "../ui/screen/terminal-out.ts";
import type { Background } from "./background.ts";
import { createExternalEditor } from "./external-editor.ts";
import { warningsToLog, writePrivateFile } from "./files.ts";
import { applyGraphemeClusters } from "./grapheme-mode.ts";
import type { GraphemeClusters } from "./graphemes.ts";
import type { JobControl } from "./job-control.ts";
import { localFiles } from "./local-files.ts";
import { mountClient } from "./mount.tsx";
import {
  adoptKeptFiles,
  keepCarriedOver,
  keepServerData,
  loadCarriedOver,
  offlineFiles,
} from "./offline.ts";
import { platformOpener } from "./opener.ts";
import { askUsername } from "./server-id.ts";
import { createClientSession } from "./session.ts";
import { keepStartScreen, type StartScreenFile } from "./start-screen.ts";

/** Who the client talks to, as the UI is mounted. */
export type Target = {
  baseUrl: string;
  token: string | undefined;
  username: string | undefined;
  label?: string;
  /**
   * What the kept files are keyed by: the server's id (src/client/server-id.ts), else its
   * address; or the embedded server's database.
   */
  identity: string;
  /** What they were keyed by before the server's id was known: its address. */
  formerIdentity?: string;
};

// For main.ts, which has this module only once start-up is under way.
export { prepareHttp } from "../api/http.ts";

/** The longest the first frame waits for the server's first answers. */
const START_DATA_WAIT_MS = 100;

export type InteractiveOptions = {
  env: NodeJS.ProcessEnv;
  paths: Paths;
  config: ResolvedClientConfig;
  target: Target;
  /** The terminal's answer to the background question, asked at start. */
  background: Promise<Background | undefined>;
  /** What the terminal said about grapheme clustering, once `background` has settled. */
  clusters?: () => GraphemeClusters | undefined;
  /** The config file's warnings (already on stderr, which the full screen hides). */
  warnings?: readonly string[];
  /** The start screen kept from the last run: where, and whether it is on screen now. */
  startScreen?: StartScreen;
  /** Ctrl+Z and SIGTSTP, answered since the start began (main.ts). */
  jobs: JobControl;
  /** Called once this module handles SIGTERM and SIGHUP itself (main.ts did until then). */
  onSignalsHandled?: () => void;
};

export type StartScreen = { file: StartScreenFile; shown: boolean };

/**
 * Whether parley runs from a clone of its repository (`npm start`, or `node dist/cli.js`
 * there), where `parley` is not a command: a clone has the sources next to dist/, the
 * package does not ship them.
 */
function fromClone(env: NodeJS.ProcessEnv): boolean {
  if (env.npm_lifecycle_event === "start" && env.npm_package_name === "parley-chat") return true;
  const script = process.argv[1];
  return script !== undefined && existsSync(join(dirname(script), "..", "src", "cli.ts"));
}

function identityKey(baseUrl: string, token: string): string {
  return `${baseUrl} ${createHash("sha256").update(token).digest("hex").slice(0, 16)}`;
}

function writeCrashLog(paths: Paths, error: unknown): string {
  const file = join(paths.state, `crash-${new Date().toISOString().replace(/[:.]/g, "-")}.log`);
  try {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writePrivateFile(file, `${new Date().toISOString()}\n${detail}\n`);
  } catch {
    return "(the crash log could not be written)";
  }
  return file;
}

export async function runInteractive(options: InteractiveOptions): Promise<number> {
  const { env, paths, config, target } = options;
  const { baseUrl, token } = target;
  if (!token) {
    throw new ConfigError(
      `No token for ${baseUrl}. Set PARLEY_TOKEN, put "token" in ${paths.configFile}, or use --token-file PATH.`,
    );
  }
  const key = identityKey(baseUrl, token);
  // Who the token is, asked once of a server that says (a token new to this machine):
  // drafts and queued work are kept by it, and a rotated token finds them again.
  let username = target.username ?? rememberedUsername(paths, key);
  if (username === undefined) {
    username = await askUsername(baseUrl, token);
    if (username !== undefined) rememberUsername(paths, key, username);
  }
  const files = offlineFiles(paths, target.identity, { username, token });
  // Work kept before its owner was known by name (by the token), or the server by its id.
  if (username !== undefined)
    adoptKeptFiles(files, offlineFiles(paths, target.identity, { token }));
  if (target.formerIdentity !== undefined && target.formerIdentity !== target.identity) {
    adoptKeptFiles(files, offlineFiles(paths, target.formerIdentity, { username, token }));
    adoptKeptFiles(files, offlineFiles(paths, target.formerIdentity, { token }));
  }
  const { jobs } = options;
  const client = createClientSession({
    api: { baseUrl, token },
    offlineHint: {
      serve: fromClone(env) ? "npm start -- serve --demo" : "parley serve --demo",
      baseUrlFrom: config.baseUrlFrom ?? "PARLEY_BASE_URL",
    },
    username,
    serverLabel: target.label,
    onIdentity: (name) => rememberUsername(paths, key, name),
    notify: {
      bell: config.bell,
      desktop: config.notifications,
      level: config.notify,
      conversations: config.notifyConversations,
    },
    terminal: terminalOut(process.stdout, env),
    openUrl: platformOpener(env),
    files: localFiles(),
    suspend: jobs.suspend,
    editText: createExternalEditor({ env, handOver: jobs.handOver }),
    carried: loadCarriedOver(files),
  });
  const { session } = client;
  const startView: StartView = { shown: false, hints: "" };
  session.startView = startView;
  const warnings = options.warnings ?? [];
  if (warnings.length > 0) {
    // Once, in the status line: stderr is under the alternate screen until the quit.
    const first = warnings[0]!.replace(paths.configFile, "config");
    session.status.note(
      `warning: ${first}${warnings.length > 1 ? ` (+${warnings.length - 1} more on stderr)` : ""}`,
    );
  }
  const serverData = await keepServerData(client.queryClient, session, files);
  session.status.lastSynced.set(serverData.restoredAt);
  const unsent = keepCarriedOver(session, files);

  // Unless kept data can show at once, the start screen's data is asked for now, and the
  // first frame waits a little for it: a server that answers quickly is drawn in one frame
  // rather than "loading…" then the list. (Kept data is drawn first, then refreshed.)
  const startData =
    serverData.restoredAt === undefined
      ? prefetchStartScreen(client.queryClient, session)
      : undefined;
  // Settled before Ink reads the keys: its answer is not one.
  const background = await options.background;
  const restoreClusters = applyGraphemeClusters(options.clusters?.(), process.stdout);
  if (startData)
    await Promise.race([startData, delay(START_DATA_WAIT_MS, undefined, { ref: false })]);

  let crash: unknown;
  const keptScreen = options.startScreen
    ? keepStartScreen(options.startScreen.file, process.stdout, startView)
    : undefined;
  // Checked as the config file was read (resolveClientConfig).
  setUserKeys(config.keys);
  const mounted = mountClient({
    ...client,
    env,
    theme: config.theme,
    background,
    // Not inside GNU screen (STY): with the mouse on, screen 4 holds a lone Esc back until
    // the next key comes, so Esc would seem dead.
    mouse: config.mouse && env.STY === undefined,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    onRenderError: (error) => {
      crash ??= error;
    },
    onExit: () => {
      keptScreen?.stop();
      keptScreen?.save();
      serverData.stop();
      serverData.flush();
      unsent.stop();
    },
  });

  const { instance } = mounted;
  // Ink has the kept start screen now, and leaves it as it leaves the alternate screen.
  if (options.startScreen) options.startScreen.shown = false;
  jobs.attach({
    suspendTerminal: mounted.suspendTerminal,
    redraw: () => process.stdout.emit("resize"),
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
  options.onSignalsHandled?.();
  process.on("uncaughtException", finish);
  process.on("unhandledRejection", finish);
  const restoreWarnings = warningsToLog(files.log);
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
  jobs.detach();
  restoreClusters();
  process.off("SIGTERM", onSignal);
  process.off("SIGHUP", onSignal);
  process.off("uncaughtException", finish);
  process.off("unhandledRejection", finish);
  restoreWarnings();
  const waiting = waitingCount(session.outbox.changes.get());
  if (waiting > 0) {
    process.stdout.write(
      `parley: ${waiting === 1 ? "1 change is" : `${waiting} changes are`} not on the server yet; ${waiting === 1 ? "it goes" : "they go"} out at the next start.\n`,
    );
  }
  if (crash !== undefined) {
    const file = writeCrashLog(paths, crash);
    process.stderr.write(
      `parley: ${crash instanceof Error ? crash.message : String(crash)} (details in ${file})\n`,
    );
    return 1;
  }
  return exitCode;
}
