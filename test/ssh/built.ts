// The built `parley ssh` (dist/cli.js) in a child process, and ssh2 clients against it:
// what an attacker or a person on the network meets. Run `npm run build` first.

import { existsSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import ssh2, { type ClientChannel, type PseudoTtyOptions } from "ssh2";
import { afterAll, beforeAll, expect } from "vitest";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { type BuiltServer, CLI, sshPort, startBuilt } from "../built.ts";
import { virtualTerminal } from "../virtual-terminal.ts";
import { until } from "../wait.ts";

export const built = existsSync(CLI);

export type BuiltSsh = BuiltServer & { port: number };

/** Starts the built `parley ssh` on a free port, with a folder of its own unless given `home`. */
export async function startBuiltSsh(
  args: string[],
  { env, home }: { env?: NodeJS.ProcessEnv; home?: string } = {},
): Promise<BuiltSsh> {
  const server = await startBuilt(["ssh", "--port", "0", "--db", ":memory:", ...args], {
    env,
    home,
    // The last line of the banner says which keys get in.
    ready: (line) => line.startsWith("any key is accepted") || line.startsWith("keys from"),
  });
  return { ...server, port: sshPort(server.banner) };
}

export { rssMiB } from "../processes.ts";

export const demoKey = newHostKey().private;

/** A signed-in ssh2 connection; rejects with the client's error (auth refused, closed). */
export function connect(
  port: number,
  username: string,
  auth: { privateKey?: string; password?: string } = { privateKey: demoKey },
): Promise<ssh2.Client> {
  return new Promise((done, fail) => {
    const client = new ssh2.Client();
    // Errors after the first (a reset after a refusal) have nowhere else to go.
    client.on("error", fail);
    client.once("ready", () => done(client));
    client.connect({ host: "127.0.0.1", port, username, ...auth, readyTimeout: 30_000 });
  });
}

export type Shell = {
  channel: ClientChannel;
  /** Everything received, stdout and stderr, as text (the last 200 kB). */
  text(): string;
  /** What the session's screen shows now (a terminal in memory fed what was received). */
  screen(): string;
  bytes(): number;
  closed: Promise<void>;
  waitFor(wanted: string | RegExp, what?: string, timeoutMs?: number): Promise<void>;
};

/** Opens a shell on `client` with a pty (`false`: none) and an environment. */
export function shell(
  client: ssh2.Client,
  pty: PseudoTtyOptions | false = { term: "xterm-256color", cols: 120, rows: 40 },
  env: Record<string, string> = {},
): Promise<Shell> {
  return new Promise((done, fail) => {
    client.shell(pty, { env }, (error, channel) => {
      if (error) return fail(error);
      let text = "";
      let bytes = 0;
      // Only for a screen a terminal can be: the tests that ask for absurd sizes read bytes.
      const cols = pty ? (pty.cols ?? 80) : 0;
      const rows = pty ? (pty.rows ?? 24) : 0;
      const term =
        cols * rows > 0 && cols <= 1000 && rows <= 500 ? virtualTerminal(cols, rows) : undefined;
      const take = (chunk: Buffer) => {
        bytes += chunk.length;
        term?.write(chunk);
        text += chunk.toString("utf8");
        if (text.length > 400_000) text = text.slice(-200_000);
      };
      channel.on("data", take);
      channel.stderr.on("data", take);
      const closed = new Promise<void>((resolve) => channel.once("close", () => resolve()));
      done({
        channel,
        text: () => text,
        screen: () => term?.screen() ?? text,
        bytes: () => bytes,
        closed,
        waitFor: async (wanted, what = String(wanted), timeoutMs = 30_000) => {
          await until(
            () => (typeof wanted === "string" ? text.includes(wanted) : wanted.test(text)),
            `${what} on screen`,
            { timeoutMs, detail: () => JSON.stringify(text.slice(-600)) },
          );
        },
      });
    });
  });
}

/** Opens the selected conversation and types `text` into its composer, until it echoes. */
export async function typeIntoComposer(s: Shell, text: string, timeoutMs = 30_000): Promise<void> {
  await s.waitFor("online", "the conversation list", timeoutMs);
  await s.waitFor("▸", "a selected row");
  // Enter on a list still settling can be dropped: again, until the composer shows.
  const deadline = Date.now() + timeoutMs;
  while (!s.text().includes("Ctrl+J newline")) {
    s.channel.write("\r");
    try {
      await s.waitFor("Ctrl+J newline", "the composer", 3000);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
  const count = () => s.screen().split(text).length - 1;
  const before = count();
  s.channel.write(text);
  await until(() => count() > before, `"${text}" echoed`, { timeoutMs });
}

/** A raw TCP connection that says nothing; resolves once connected. */
export function silentSocket(port: number, localAddress = "127.0.0.1"): Promise<Socket> {
  return new Promise((done, fail) => {
    const socket = createConnection({ host: "127.0.0.1", port, localAddress }, () => done(socket));
    socket.on("error", fail);
  });
}

/** A TCP connection the server is expected to close at once: resolves once it is closed. */
export function refusedSocket(port: number, localAddress = "127.0.0.1"): Promise<void> {
  return new Promise((done) => {
    const socket = createConnection({ host: "127.0.0.1", port, localAddress });
    socket.on("error", () => {});
    socket.once("close", () => done());
    socket.resume();
  });
}

/** Signs in, trying again while the server still counts connections just closed. */
export function connectWhenFree(port: number, username: string): Promise<ssh2.Client> {
  return until(() => connect(port, username), `${username} let in`, { intervalMs: 100 });
}

/** Whether the server closed `socket` (its end, or a reset). */
export function closedByServer(socket: Socket): Promise<void> {
  return new Promise((done) => {
    if (socket.destroyed || socket.readableEnded) return done();
    socket.on("error", () => {});
    socket.once("close", () => done());
    socket.resume();
  });
}

/**
 * The built `parley ssh` with `args`, started before the file's tests and stopped after
 * them (it must exit with 0); `server` is unset where there is no build.
 */
export function builtSshForFile(args: string[]): { server: BuiltSsh } {
  const running = {} as { server: BuiltSsh };
  beforeAll(async () => {
    if (!built) return;
    running.server = await startBuiltSsh(args);
  }, 30_000);
  afterAll(async () => {
    if (running.server) expect(await running.server.stop()).toBe(0);
  });
  return running;
}
