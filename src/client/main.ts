// Starts the full-screen client: checks the terminal, asks it for its background, reads
// the config and, when no server is configured, starts the embedded demo server; then
// src/client/run.ts mounts the UI. Ordered for a quick first frame: the terminal's answer
// travels and the server's thread starts while the UI's modules (the bulk of start-up)
// load, imported only then.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  type Paths,
  parleyPaths,
  type ResolvedClientConfig,
  resolveClientConfig,
} from "../config.ts";
import { queryBackground } from "./background.ts";
import { type EmbeddedServer, startEmbeddedServer } from "./embedded.ts";
import type { GraphemeClusters } from "./graphemes.ts";
import type { Target } from "./run.ts";
import { serverIdentity } from "./server-id.ts";

export type ClientArgs = {
  baseUrl?: string;
  tokenFile?: string;
  /** The built embedded server's thread script (dist/server-worker.js), when there is one. */
  serverScript?: URL;
};

/** When a started client asks its server again which server it is. */
const CHECK_AFTER_MS = 5000;

/** Whether an earlier run kept a query cache here (for anyone: this only guides a guess). */
function keptAnything(paths: Paths): boolean {
  try {
    return readdirSync(paths.cache).some((name) => name.endsWith(".json"));
  } catch {
    return false;
  }
}

function cookedMode(stdin: NodeJS.ReadStream): void {
  try {
    if (stdin.isRaw) stdin.setRawMode(false);
  } catch {
    // a terminal that is gone (a dropped SSH connection) has no mode to restore
  }
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
  // Asked before anything loads; not waited for when the config names a theme. The
  // terminal stays raw from here on (no echo of keys typed early), Ink's from the mount.
  const notWanted = new AbortController();
  let graphemeClusters: GraphemeClusters | undefined;
  const background = queryBackground(process.stdin, process.stdout, {
    signal: notWanted.signal,
    stayRaw: true,
    onGraphemeClusters: (answer) => {
      graphemeClusters = answer;
    },
  });
  // Until run.ts handles them: a start ended by SIGTERM or SIGHUP gives the terminal back.
  const endStart = (signal: NodeJS.Signals) => {
    cookedMode(process.stdin);
    process.exit(signal === "SIGHUP" ? 129 : 143);
  };
  process.on("SIGTERM", endStart);
  process.on("SIGHUP", endStart);
  let embedded: EmbeddedServer | undefined;
  try {
    const paths = parleyPaths();
    const config: ResolvedClientConfig = resolveClientConfig({
      baseUrl: args.baseUrl,
      tokenFile: args.tokenFile,
      env,
      paths,
      warn: (line) => process.stderr.write(`parley: warning: ${line}\n`),
    });
    if (config.theme !== "auto") notWanted.abort();
    let target: Target;
    let interactive: Promise<typeof import("./run.ts")>;
    if (config.baseUrl === undefined) {
      const db = join(paths.data, "parley.db");
      const starting = startEmbeddedServer(
        { db, demo: true, demoReplies: true },
        args.serverScript,
      );
      interactive = import("./run.ts");
      // A first run (nothing kept) waits for the server's answers before its first frame:
      // HTTP's modules load while the server's thread is still starting.
      if (!keptAnything(paths)) void interactive.then((ui) => ui.prepareHttp());
      embedded = await starting;
      const user = embedded.demoUsers[0]!;
      target = {
        baseUrl: embedded.url,
        token: user.token,
        username: user.username,
        label: "the demo (embedded server)",
        identity: `embedded ${db}`,
      };
    } else {
      interactive = import("./run.ts");
      const server = await serverIdentity(paths, config.baseUrl);
      target = {
        baseUrl: config.baseUrl,
        token: config.token,
        username: config.username,
        identity: server.identity,
        formerIdentity: config.baseUrl,
      };
      // Once started, whether the address is still the server it was.
      setTimeout(() => void server.check(join(paths.state, "parley.log")), CHECK_AFTER_MS).unref();
    }
    const { runInteractive } = await interactive;
    process.off("SIGTERM", endStart);
    process.off("SIGHUP", endStart);
    const clusters = () => graphemeClusters;
    return await runInteractive({ env, paths, config, target, embedded, background, clusters });
  } finally {
    process.off("SIGTERM", endStart);
    process.off("SIGHUP", endStart);
    notWanted.abort();
    await background;
    // Ink turns raw mode off when it ends; this is for a start that failed before it began.
    cookedMode(process.stdin);
    await embedded?.close().catch(() => {});
  }
}
