// The built CLI (dist/cli.js) as a server in a child process, in a home of its own (HOME
// and the XDG folders under one folder), its banner and its log read line by line: what
// the tests of the built `parley ssh` and `parley web`, and their benchmarks, start.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

export const CLI = resolve(import.meta.dirname, "../dist/cli.js");

/** `base` with HOME and the XDG folders under `home`. */
export function homeEnv(home: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
  };
}

export type BuiltServer = {
  child: ChildProcess;
  /** Its home. */
  dir: string;
  /** What it wrote on stdout, up to the line it was ready at. */
  banner: string[];
  /** Everything it writes on stderr (its log), one entry a line. */
  log: string[];
  /** Ends it (SIGTERM, unless it ended already) and resolves to its exit code. */
  stop(): Promise<number | null>;
};

export type BuiltOptions = {
  /** The banner's line after which it is ready. */
  ready: (line: string) => boolean;
  /** Its home, kept by the caller; by default a fresh folder, removed by stop(). */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Another build (a benchmark's before-and-after). */
  cli?: string;
  nodeFlags?: string[];
};

/** Starts `parley <args>` and reads its banner until `ready`. */
export async function startBuilt(args: string[], options: BuiltOptions): Promise<BuiltServer> {
  const dir = options.home ?? mkdtempSync(join(tmpdir(), `parley-${args[0]}-built-`));
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), options.cli ?? CLI, ...args],
    {
      env: homeEnv(dir, options.env),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const log: string[] = [];
  const banner: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (line) => log.push(line));
  let ready = false;
  for await (const line of createInterface({ input: child.stdout! })) {
    banner.push(line);
    ready = options.ready(line);
    if (ready) break;
  }
  if (!ready) throw new Error(`parley ${args[0]} did not start:\n${log.join("\n")}`);
  // Read on past the banner: a child blocked on a full stdout pipe would stop serving.
  child.stdout!.resume();
  return {
    child,
    dir,
    banner,
    log,
    async stop() {
      // Ended already (by itself, or killed by a signal): no exit event is coming.
      const over = child.exitCode !== null || child.signalCode !== null;
      const exited = over
        ? Promise.resolve(child.exitCode)
        : new Promise<number | null>((done) => child.once("exit", done));
      if (!over) child.kill("SIGTERM");
      const code = await exited;
      if (options.home === undefined) rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/** The port `parley ssh`'s banner says it listens on. */
export function sshPort(banner: string[]): number {
  const port = banner.map((line) => /listening on \S+ port (\d+)/.exec(line)?.[1]).find(Boolean);
  if (port === undefined) throw new Error(`parley ssh said no port:\n${banner.join("\n")}`);
  return Number(port);
}
