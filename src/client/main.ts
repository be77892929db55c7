// Starts the full-screen client: checks the terminal, starts the embedded demo server when
// no server is named, reads the config, asks the terminal for its background, draws the
// start screen kept from the last run (src/client/start-screen.ts); then src/client/run.ts
// mounts the UI. Ordered for a quick first frame: the terminal's answer travels, and the
// kept screen is up while the server and the UI's modules (the bulk of start-up) load,
// imported only then.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { ResolvedClientConfig } from "../config.ts";
import { type Paths, parleyPaths } from "../paths.ts";
import { type Background, queryBackground } from "./background.ts";
import { type EmbeddedServer, startEmbeddedServer } from "./embedded.ts";
import type { GraphemeClusters } from "./graphemes.ts";
import { createJobControl } from "./job-control.ts";
import type { StartScreen, Target } from "./run.ts";
import { serverIdentity } from "./server-id.ts";
import { leaveStartScreen, showStartScreen, startScreenFile } from "./start-screen.ts";

export type ClientArgs = {
  baseUrl?: string;
  tokenFile?: string;
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
  let startScreen: StartScreen | undefined;
  // Until run.ts handles them: a start ended by SIGTERM or SIGHUP gives the terminal back.
  const endStart = (signal: NodeJS.Signals) => {
    if (startScreen?.shown) leaveStartScreen(process.stdout);
    cookedMode(process.stdin);
    process.exit(signal === "SIGHUP" ? 129 : 143);
  };
  process.on("SIGTERM", endStart);
  process.on("SIGHUP", endStart);
  // A SIGTSTP from here on waits for the mount, which gives the terminal back first.
  const jobs = createJobControl();
  jobs.listen();
  let embedded: EmbeddedServer | undefined;
  let background: Promise<Background | undefined> = Promise.resolve(undefined);
  let graphemeClusters: GraphemeClusters | undefined;
  /** The config file's warnings: on stderr now, and in the app once it is up. */
  const warnings: string[] = [];
  const paths = parleyPaths();
  const db = join(paths.data, "parley.db");
  const demo = { db, demo: true, demoReplies: true };
  try {
    const { resolveClientConfig } = await import("../config.ts");
    const config: ResolvedClientConfig = resolveClientConfig({
      baseUrl: args.baseUrl,
      tokenFile: args.tokenFile,
      env,
      paths,
      warn: (line) => {
        process.stderr.write(`parley: warning: ${line}\n`);
        warnings.push(line);
      },
    });
    // The terminal is asked as soon as the config says what is wanted (its background
    // only for the `auto` theme; whether it clusters graphemes always), before the UI's
    // modules load. Its answers are read whatever happens next (the finally below waits
    // for them): unread, they would reach the UI as keys, or the shell after an early exit
    // (`1;2c` on the prompt). The terminal stays raw from here on (no echo of keys typed
    // early), Ink's from the mount.
    background = queryBackground(process.stdin, process.stdout, {
      stayRaw: true,
      askBackground: config.theme === "auto",
      onGraphemeClusters: (answer) => {
        graphemeClusters = answer;
      },
    });
    startScreen = {
      file:
        config.baseUrl === undefined
          ? startScreenFile(paths.cache, `embedded ${db}`, undefined)
          : startScreenFile(paths.cache, config.baseUrl, config.token),
      shown: false,
    };
    startScreen.shown = showStartScreen(startScreen.file, process.stdout);
    let target: Target;
    let interactive: Promise<typeof import("./run.ts")>;
    if (config.baseUrl === undefined) {
      const starting = startEmbeddedServer(demo);
      interactive = import("./run.ts");
      // A first run (nothing kept) waits for the server's answers before its first frame:
      // HTTP's modules load with the server's and the UI's.
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
    const clusters = () => graphemeClusters;
    return await runInteractive({
      env,
      paths,
      config,
      target,
      background,
      clusters,
      warnings,
      startScreen,
      jobs,
      // From then on run.ts ends the client on a signal, restoring the terminal.
      onSignalsHandled: () => {
        process.off("SIGTERM", endStart);
        process.off("SIGHUP", endStart);
      },
    });
  } finally {
    // A start that ended before Ink took over the kept screen leaves it.
    if (startScreen?.shown) leaveStartScreen(process.stdout);
    process.off("SIGTERM", endStart);
    process.off("SIGHUP", endStart);
    jobs.detach();
    // Bounded by the question's own timeout: a terminal that never answers is not waited for.
    await background;
    // Ink turns raw mode off when it ends; this is for a start that failed before it began.
    cookedMode(process.stdin);
    await embedded?.close().catch(() => {});
  }
}
